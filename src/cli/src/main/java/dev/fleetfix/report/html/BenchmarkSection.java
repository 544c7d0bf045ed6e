package dev.fleetfix.report.html;

import static dev.fleetfix.report.html.Markup.attrs;
import static dev.fleetfix.report.html.Markup.el;

import dev.fleetfix.Counts;
import dev.fleetfix.report.Effects;
import dev.fleetfix.report.RedisEvidence;
import dev.fleetfix.report.model.BenchmarkRunReport;
import dev.fleetfix.report.model.ComparisonReport;
import dev.fleetfix.report.model.FleetComparisonReport;
import dev.fleetfix.report.model.FleetReport;
import dev.fleetfix.report.model.HostReport;
import dev.fleetfix.report.model.MetricReport;
import dev.fleetfix.report.model.TestResultReport;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The HTML report's before/after benchmarks: per benchmark and test, the fleet's median latency curves with the
 * fleet verdict, then each host's rounds with its figures, their changes and verdicts, Redis's own figures and what
 * the host's era lets a THP benchmark show. A sweep's rounds are left to {@link SweepSection}.
 */
final class BenchmarkSection {
    static final String BEFORE = "#d9480f";
    static final String AFTER = "#1971c2";

    private BenchmarkSection() {}

    static Markup render(FleetReport report) {
        if (nameTests(report).isEmpty()) {
            return Markup.EMPTY;
        }
        List<Markup> fleet = new ArrayList<>();
        for (List<String> key : nameTests(report)) {
            List<LatencyChart.Series> series = new ArrayList<>();
            for (String phase : List.of("before", "after")) {
                List<TestResultReport> tests = tests(report, null, key.get(0), key.get(1), phase);
                series.add(new LatencyChart.Series(
                        phase + " (median of " + Counts.of(tests.size(), "round") + ")",
                        color(phase),
                        LatencyCurves.fleetMedian(tests)));
            }
            fleet.add(figure("fleet · " + key.get(0) + " · " + key.get(1), series, fleetTable(report, key)));
        }
        List<Markup> perHost = new ArrayList<>();
        Set<String> hosts = new LinkedHashSet<>();
        report.benchmarks().runs().stream().filter(r -> r.point() == null).forEach(r -> hosts.add(r.host()));
        for (String host : hosts) {
            for (List<String> key : nameTests(report)) {
                hostFigure(report, host, key).ifPresent(perHost::add);
            }
        }
        return Markup.of(
                el("section", el("h2", "Benchmarks: the fleet"), el("div", attrs("class", "charts"), fleet)),
                el("section", el("h2", "Benchmarks: per host"), el("div", attrs("class", "charts"), perHost)));
    }

    /** One host's rounds of one benchmark and test, each side's curves, with its comparison below; none if it ran none. */
    private static Optional<Markup> hostFigure(FleetReport report, String host, List<String> key) {
        List<LatencyChart.Series> series = new ArrayList<>();
        for (String phase : List.of("before", "after")) {
            List<TestResultReport> tests = tests(report, host, key.get(0), key.get(1), phase);
            for (TestResultReport t : tests) {
                series.add(new LatencyChart.Series(
                        phase + " (" + Counts.of(tests.size(), "round") + ")", color(phase), LatencyCurves.of(t)));
            }
        }
        if (series.isEmpty()) {
            return Optional.empty();
        }
        List<Markup> tables = new ArrayList<>();
        for (ComparisonReport c : report.benchmarks().comparisons()) {
            if (c.host().equals(host) && c.name().equals(key.get(0)) && c.test().equals(key.get(1))) {
                tables.add(metricTable(c));
                tables.add(redisFigures(report, c));
                tables.add(expectation(report, host));
            }
        }
        return Optional.of(figure(host + " · " + key.get(0) + " · " + key.get(1), series, Markup.of(tables)));
    }

    private static Markup figure(String title, List<LatencyChart.Series> series, Markup table) {
        // LatencyChart escapes every label it writes
        return el("figure", attrs("class", "plot"), Markup.trusted(LatencyChart.svg(title, series)), table);
    }

    private static Markup fleetTable(FleetReport report, List<String> key) {
        List<Markup> captions = new ArrayList<>();
        for (FleetComparisonReport f : report.benchmarks().fleet()) {
            if (f.name().equals(key.get(0)) && f.test().equals(key.get(1))) {
                List<Object> parts = new ArrayList<>();
                parts.add(HtmlPage.verdictBadge(f.verdict(), f.reason()));
                parts.add(" over " + f.hosts().size() + " hosts: " + f.improved() + " improved, " + f.regressed()
                        + " regressed, " + f.noChangeDetected() + " no change detected, " + f.inconclusive()
                        + " inconclusive.");
                if (!f.effects().isEmpty()) {
                    parts.add(" Over hosts (geometric mean [95 % interval]): ");
                    parts.add(f.effects().entrySet().stream()
                            .map(e -> Effects.of(e.getKey(), e.getValue()))
                            .collect(Collectors.joining(", ")));
                }
                Set<String> expected = new LinkedHashSet<>();
                for (HostReport host : report.hosts()) {
                    if (f.hosts().contains(host.name())) {
                        Effects.expectation(host).ifPresent(expected::add);
                    }
                }
                for (String e : expected) {
                    parts.add(Markup.trusted("<br>"));
                    parts.add("expected: " + e);
                }
                captions.add(el("figcaption", parts));
            }
        }
        return Markup.of(captions);
    }

    /** Redis's own figures around the restart, beside the synthetic ones. */
    private static Markup redisFigures(FleetReport report, ComparisonReport c) {
        return RedisEvidence.of(report, c)
                .map(e -> el("p", attrs("class", "note"), "redis, before → after: " + e))
                .orElse(Markup.EMPTY);
    }

    /** What the host's era lets a THP benchmark show, so a verdict can be read against it. */
    private static Markup expectation(FleetReport report, String host) {
        return report.hosts().stream()
                .filter(h -> h.name().equals(host))
                .findFirst()
                .flatMap(Effects::expectation)
                .map(e -> el("p", attrs("class", "note"), "expected: " + e))
                .orElse(Markup.EMPTY);
    }

    private static Markup metricTable(ComparisonReport c) {
        String unitOfSample = c.metrics().isEmpty() || c.metrics().get(0).sampleUnit() == null
                ? "sample"
                : c.metrics().get(0).sampleUnit();
        List<Markup> rows = new ArrayList<>();
        for (MetricReport m : c.metrics()) {
            String unit = m.metric().equals("rps") ? "" : " ms";
            rows.add(el(
                    "tr",
                    el("td", m.metric()),
                    el("td", fmt(m.beforeSampleMedian() == null ? m.beforeMedian() : m.beforeSampleMedian()) + unit),
                    el("td", fmt(m.afterSampleMedian() == null ? m.afterMedian() : m.afterSampleMedian()) + unit),
                    el("td", Effects.of(m)),
                    el("td", m.adjustedP() == null ? "–" : String.format(Locale.ROOT, "%.3g", m.adjustedP())),
                    el(
                            "td",
                            m.decisive()
                                    ? HtmlPage.verdictBadge(m.verdict(), m.reason())
                                    : el("span", attrs("class", "muted"), "not decisive: " + m.notDecisive()))));
        }
        List<Markup> notes = new ArrayList<>();
        notes.add(el(
                "p",
                attrs("class", "note"),
                "before and after: medians of the " + unitOfSample + (unitOfSample.endsWith("ch") ? "es" : "s")
                        + " each side, the figures the change is over"));
        notes.add(el("p", attrs("class", "note"), "design: " + (c.design() == null ? "" : c.design())));
        for (String note : c.notes()) {
            notes.add(el("p", attrs("class", "note"), "note: " + note));
        }
        return Markup.of(
                el(
                        "table",
                        attrs("class", "metrics"),
                        el(
                                "thead",
                                el(
                                        "tr",
                                        el("th", "figure"),
                                        el("th", "before"),
                                        el("th", "after"),
                                        el("th", "change [95 % interval]"),
                                        el("th", "p (Holm)"),
                                        el("th", "verdict"))),
                        el("tbody", rows)),
                notes);
    }

    private static List<List<String>> nameTests(FleetReport report) {
        Set<List<String>> keys = new LinkedHashSet<>();
        for (BenchmarkRunReport r : report.benchmarks().runs()) {
            if (r.point() == null) { // a sweep's rounds have their own section
                r.tests().forEach(t -> keys.add(List.of(r.name(), t.test())));
            }
        }
        return List.copyOf(keys);
    }

    private static List<TestResultReport> tests(
            FleetReport report, String host, String name, String test, String phase) {
        List<TestResultReport> tests = new ArrayList<>();
        for (BenchmarkRunReport r : report.benchmarks().runs()) {
            if ((host == null || r.host().equals(host))
                    && r.point() == null
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

    private static String fmt(double v) {
        if (Math.abs(v) >= 1000) {
            return String.format(Locale.ROOT, "%,.0f", v);
        }
        return String.format(Locale.ROOT, "%.3g", v);
    }
}
