package dev.fleetfix.report;

import dev.fleetfix.report.model.BenchmarkRunReport;
import dev.fleetfix.report.model.ChangeReport;
import dev.fleetfix.report.model.ComparisonReport;
import dev.fleetfix.report.model.FleetComparisonReport;
import dev.fleetfix.report.model.FleetReport;
import dev.fleetfix.report.model.GateReport;
import dev.fleetfix.report.model.HostReport;
import dev.fleetfix.report.model.MetricReport;
import dev.fleetfix.report.model.RunInfo;
import dev.fleetfix.report.model.StepReport;
import dev.fleetfix.report.model.TestResultReport;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * {@code report.html}: one self-contained page (inline CSS, inline SVG, no network): fleet summary,
 * per-host table, before/after latency plots for the fleet and per host, step details.
 */
final class HtmlPage {
    static final String BEFORE = "#d9480f";
    static final String AFTER = "#1971c2";

    private HtmlPage() {}

    static String render(FleetReport report) {
        StringBuilder h = new StringBuilder(64 * 1024);
        RunInfo run = report.run();
        h.append("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n")
                .append("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n")
                .append("<title>fleetfix report ")
                .append(esc(run.id()))
                .append("</title>\n<style>\n")
                .append(HtmlStyle.CSS)
                .append("</style>\n<script>\n")
                .append(HtmlStyle.ERROR_HOOK)
                .append("</script>\n</head>\n<body>\n");
        header(h, report);
        summary(h, report);
        hostTable(h, report);
        benchmarks(h, report);
        details(h, report);
        h.append("<footer>fleetfix report, schema_version ")
                .append(report.schemaVersion())
                .append(". Percentile axes are logarithmic in 1/(1−p), as HdrHistogram plots are read.</footer>\n")
                .append("<pre id=\"console-errors\" hidden></pre>\n<script>\n")
                .append(HtmlStyle.CHART_CHECK)
                .append("</script>\n</body>\n</html>\n");
        return h.toString();
    }

    private static void header(StringBuilder h, FleetReport report) {
        RunInfo run = report.run();
        String outcome = run.outcome() == null ? "unfinished" : run.outcome();
        h.append("<header>\n<h1>fleetfix <span class=\"muted\">")
                .append(esc(run.playbook()))
                .append("</span> ")
                .append(badge(outcome))
                .append(run.check() ? " " + badge("check mode") : "")
                .append("</h1>\n<p class=\"muted\">run ")
                .append(esc(run.id()))
                .append(" · started ")
                .append(esc(run.startedAt()))
                .append(" · ")
                .append(esc(ConsoleReporter.human(java.time.Duration.ofMillis(run.elapsedMs()))))
                .append(" · forks ")
                .append(run.forks())
                .append("</p>\n");
        if (!run.reason().isEmpty()) {
            h.append("<p class=\"reason\">").append(esc(run.reason())).append("</p>\n");
        }
        h.append("</header>\n");
    }

    private static void summary(StringBuilder h, FleetReport report) {
        Map<String, Long> outcomes = report.hosts().stream()
                .collect(Collectors.groupingBy(HostReport::outcome, LinkedHashMap::new, Collectors.counting()));
        h.append("<section class=\"cards\">\n");
        card(h, "hosts", String.valueOf(report.hosts().size()), "");
        card(h, "done", String.valueOf(outcomes.getOrDefault("done", 0L)), "ok");
        card(h, "changed", String.valueOf(report.run().changed().size()), "changed");
        long failed = outcomes.getOrDefault("failed", 0L) + outcomes.getOrDefault("unreachable", 0L);
        card(h, "failed", String.valueOf(failed), failed > 0 ? "bad" : "");
        card(h, "untouched", String.valueOf(outcomes.getOrDefault("untouched", 0L)), "");
        for (FleetComparisonReport f : report.benchmarks().fleet()) {
            card(h, f.name() + " · " + f.test(), f.verdict().replace('_', ' '), verdictClass(f.verdict()));
        }
        h.append("</section>\n");
        for (var play : report.plays()) {
            if (play.halted() != null) {
                h.append("<p class=\"reason\">play ")
                        .append(esc(play.name()))
                        .append(" halted: ")
                        .append(esc(play.halted()))
                        .append("</p>\n");
            }
            if (play.windowClosed() != null) {
                h.append("<p class=\"reason\">play ")
                        .append(esc(play.name()))
                        .append(": change window ")
                        .append(esc(play.windowClosed()))
                        .append("</p>\n");
            }
        }
    }

    private static void card(StringBuilder h, String label, String value, String cls) {
        h.append("<div class=\"card ")
                .append(cls)
                .append("\"><div class=\"value\">")
                .append(esc(value))
                .append("</div><div class=\"label\">")
                .append(esc(label))
                .append("</div></div>\n");
    }

    private static void hostTable(StringBuilder h, FleetReport report) {
        h.append("<section>\n<h2>Hosts</h2>\n<table class=\"hosts\">\n<thead><tr><th>host</th><th>outcome</th>")
                .append(
                        "<th>THP before → after</th><th>changes</th><th>benchmark</th><th>failure</th></tr></thead>\n<tbody>\n");
        for (HostReport host : report.hosts()) {
            List<String> changes = new ArrayList<>();
            for (StepReport s : host.steps()) {
                for (ChangeReport c : s.changes()) {
                    changes.add(c.what() + ": " + c.before() + " → " + c.after());
                }
            }
            String bench = report.benchmarks().comparisons().stream()
                    .filter(c -> c.host().equals(host.name()))
                    .map(c -> c.test() + " " + badge(c.verdict()))
                    .collect(Collectors.joining("<br>"));
            h.append("<tr><td class=\"name\">")
                    .append(esc(host.name()))
                    .append("</td><td>")
                    .append(badge(host.outcome()))
                    .append("</td><td>")
                    .append(thp(host))
                    .append("</td><td>")
                    .append(changes.isEmpty() ? "<span class=\"muted\">none</span>" : list(changes))
                    .append("</td><td>")
                    .append(bench.isEmpty() ? "<span class=\"muted\">–</span>" : bench)
                    .append("</td><td class=\"failure\">")
                    .append(esc(host.reason()))
                    .append("</td></tr>\n");
        }
        h.append("</tbody>\n</table>\n</section>\n");
    }

    private static String thp(HostReport host) {
        String before = host.thpBefore() == null ? "?" : host.thpBefore();
        String after = host.thpAfter() == null ? "?" : host.thpAfter();
        String cls = "never".equals(after) ? "ok" : "bad";
        return "<code>" + esc(before) + "</code> → <code class=\"" + cls + "\">" + esc(after) + "</code>";
    }

    private static void benchmarks(StringBuilder h, FleetReport report) {
        if (report.benchmarks().runs().isEmpty()) {
            return;
        }
        h.append("<section>\n<h2>Benchmarks: the fleet</h2>\n<div class=\"charts\">\n");
        for (List<String> key : nameTests(report)) {
            List<LatencyChart.Series> series = new ArrayList<>();
            for (String phase : List.of("before", "after")) {
                List<TestResultReport> tests = tests(report, null, key.get(0), key.get(1), phase);
                series.add(new LatencyChart.Series(
                        phase + " (median of " + tests.size() + " rounds)",
                        color(phase),
                        LatencyCurves.fleetMedian(tests)));
            }
            figure(h, "fleet · " + key.get(0) + " · " + key.get(1), series, fleetTable(report, key));
        }
        h.append("</div>\n</section>\n<section>\n<h2>Benchmarks: per host</h2>\n<div class=\"charts\">\n");
        Set<String> hosts = new LinkedHashSet<>();
        report.benchmarks().runs().forEach(r -> hosts.add(r.host()));
        for (String host : hosts) {
            for (List<String> key : nameTests(report)) {
                List<LatencyChart.Series> series = new ArrayList<>();
                for (String phase : List.of("before", "after")) {
                    List<TestResultReport> tests = tests(report, host, key.get(0), key.get(1), phase);
                    for (TestResultReport t : tests) {
                        series.add(new LatencyChart.Series(
                                phase + " (" + tests.size() + " rounds)", color(phase), LatencyCurves.of(t)));
                    }
                }
                if (series.isEmpty()) {
                    continue;
                }
                String table = report.benchmarks().comparisons().stream()
                        .filter(c -> c.host().equals(host)
                                && c.name().equals(key.get(0))
                                && c.test().equals(key.get(1)))
                        .map(c -> metricTable(c) + redisFigures(report, c) + expectation(report, host))
                        .collect(Collectors.joining());
                figure(h, host + " · " + key.get(0) + " · " + key.get(1), series, table);
            }
        }
        h.append("</div>\n</section>\n");
    }

    private static void figure(StringBuilder h, String title, List<LatencyChart.Series> series, String table) {
        h.append("<figure class=\"plot\">\n")
                .append(LatencyChart.svg(title, series))
                .append(table)
                .append("</figure>\n");
    }

    private static String fleetTable(FleetReport report, List<String> key) {
        StringBuilder t = new StringBuilder();
        for (FleetComparisonReport f : report.benchmarks().fleet()) {
            if (f.name().equals(key.get(0)) && f.test().equals(key.get(1))) {
                t.append("<figcaption>")
                        .append(badge(f.verdict()))
                        .append(" over ")
                        .append(f.hosts().size())
                        .append(" hosts: ")
                        .append(f.improved())
                        .append(" improved, ")
                        .append(f.regressed())
                        .append(" regressed, ")
                        .append(f.withinNoise())
                        .append(" within noise. Over hosts (geometric mean [95 % interval]): ");
                t.append(f.effects().entrySet().stream()
                        .map(e -> esc(Effects.of(e.getKey(), e.getValue())))
                        .collect(Collectors.joining(", ")));
                Set<String> expected = new LinkedHashSet<>();
                for (HostReport host : report.hosts()) {
                    if (f.hosts().contains(host.name())) {
                        Effects.expectation(host).ifPresent(expected::add);
                    }
                }
                for (String e : expected) {
                    t.append("<br>expected: ").append(esc(e));
                }
                t.append("</figcaption>\n");
            }
        }
        return t.toString();
    }

    /** Redis's own figures around the restart, beside the synthetic ones. */
    private static String redisFigures(FleetReport report, ComparisonReport c) {
        return Recap.evidence(report, c)
                .map(e -> "<p class=\"note\">redis, before → after: " + esc(e) + "</p>\n")
                .orElse("");
    }

    /** What the host's era lets a THP benchmark show, so a verdict can be read against it. */
    private static String expectation(FleetReport report, String host) {
        return report.hosts().stream()
                .filter(h -> h.name().equals(host))
                .findFirst()
                .flatMap(Effects::expectation)
                .map(e -> "<p class=\"note\">expected: " + esc(e) + "</p>\n")
                .orElse("");
    }

    private static String metricTable(ComparisonReport c) {
        String unitOfSample = c.metrics().isEmpty() || c.metrics().get(0).sampleUnit() == null
                ? "sample"
                : c.metrics().get(0).sampleUnit();
        StringBuilder t = new StringBuilder("<table class=\"metrics\"><thead><tr><th>figure</th>"
                + "<th title=\"median of the before " + unitOfSample + "s, the figure the change is over\">before</th>"
                + "<th title=\"median of the after " + unitOfSample + "s\">after</th>"
                + "<th>change [95 % interval]</th><th>p (Holm)</th><th>verdict</th></tr></thead>"
                + "<tbody>\n");
        for (MetricReport m : c.metrics()) {
            String unit = m.metric().equals("rps") ? "" : " ms";
            t.append("<tr><td>")
                    .append(esc(m.metric()))
                    .append("</td><td>")
                    .append(fmt(m.beforeSampleMedian() == null ? m.beforeMedian() : m.beforeSampleMedian()))
                    .append(unit)
                    .append("</td><td>")
                    .append(fmt(m.afterSampleMedian() == null ? m.afterMedian() : m.afterSampleMedian()))
                    .append(unit)
                    .append("</td><td>")
                    .append(esc(Effects.of(m)))
                    .append("</td><td>")
                    .append(
                            m.adjustedP() == null
                                    ? "–"
                                    : esc(String.format(java.util.Locale.ROOT, "%.3g", m.adjustedP())))
                    .append("</td><td>")
                    .append(
                            m.decisive()
                                    ? badge(m.verdict())
                                    : "<span title=\"" + esc(m.notDecisive()) + "\">not decisive</span>")
                    .append("</td></tr>\n");
        }
        t.append("</tbody></table>\n");
        t.append("<p class=\"note\">design: ")
                .append(esc(c.design() == null ? "" : c.design()))
                .append("</p>\n");
        for (String note : c.notes()) {
            t.append("<p class=\"note\">note: ").append(esc(note)).append("</p>\n");
        }
        return t.toString();
    }

    private static void details(StringBuilder h, FleetReport report) {
        h.append("<section>\n<h2>Steps</h2>\n");
        for (HostReport host : report.hosts()) {
            h.append("<details><summary><b>")
                    .append(esc(host.name()))
                    .append("</b> ")
                    .append(badge(host.outcome()))
                    .append(" <span class=\"muted\">")
                    .append(host.steps().size())
                    .append(" steps</span></summary>\n<table class=\"steps\"><tbody>\n");
            for (StepReport s : host.steps()) {
                h.append("<tr><td>")
                        .append(esc(s.play()))
                        .append(" #")
                        .append(s.index())
                        .append("</td><td>")
                        .append(esc(s.name()))
                        .append("</td><td>")
                        .append(badge(s.status()))
                        .append("</td><td>")
                        .append(esc(s.message()));
                for (GateReport g : s.gates()) {
                    h.append("<br>gate ")
                            .append(esc(g.gate()))
                            .append(" ")
                            .append(badge(g.forecast() != null ? "forecast" : g.passed() ? "passed" : "failed"))
                            .append(" ")
                            .append(esc(g.detail()));
                    if (g.forecast() != null) {
                        h.append(" (").append(esc(g.forecast())).append(")");
                    }
                }
                h.append("</td></tr>\n");
            }
            h.append("</tbody></table>\n");
            if (!host.facts().isEmpty()) {
                h.append("<p class=\"facts\">");
                host.facts().forEach((k, v) -> h.append("<code>")
                        .append(esc(k))
                        .append("=")
                        .append(esc(v))
                        .append("</code> "));
                h.append("</p>\n");
            }
            h.append("</details>\n");
        }
        h.append("</section>\n");
    }

    private static List<List<String>> nameTests(FleetReport report) {
        Set<List<String>> keys = new LinkedHashSet<>();
        for (BenchmarkRunReport r : report.benchmarks().runs()) {
            r.tests().forEach(t -> keys.add(List.of(r.name(), t.test())));
        }
        return List.copyOf(keys);
    }

    private static List<TestResultReport> tests(
            FleetReport report, String host, String name, String test, String phase) {
        List<TestResultReport> tests = new ArrayList<>();
        for (BenchmarkRunReport r : report.benchmarks().runs()) {
            if ((host == null || r.host().equals(host))
                    && r.name().equals(name)
                    && r.phase().equals(phase)) {
                r.tests().stream().filter(t -> t.test().equals(test)).forEach(tests::add);
            }
        }
        return tests;
    }

    private static String color(String phase) {
        return phase.equals("before") ? BEFORE : AFTER;
    }

    private static String list(List<String> items) {
        return items.stream().map(i -> esc(i)).collect(Collectors.joining("<br>"));
    }

    private static String badge(String word) {
        return "<span class=\"badge " + verdictClass(word) + "\">" + esc(word.replace('_', ' ')) + "</span>";
    }

    private static String verdictClass(String word) {
        return switch (word) {
            case "ok", "done", "improved", "passed" -> "ok";
            case "changed", "check mode" -> "changed";
            case "failed",
                    "unreachable",
                    "regressed",
                    "halted",
                    "hosts_failed",
                    "window_closed",
                    "refused_outside_window" -> "bad";
            default -> "neutral";
        };
    }

    private static String fmt(double v) {
        if (Math.abs(v) >= 1000) {
            return String.format(Locale.ROOT, "%,.0f", v);
        }
        return String.format(Locale.ROOT, "%.3g", v);
    }

    private static String esc(String s) {
        return Html.escape(s);
    }
}
