package dev.fleetfix.report.html;

import static dev.fleetfix.report.html.Markup.attrs;
import static dev.fleetfix.report.html.Markup.el;
import static dev.fleetfix.report.html.Markup.text;

import dev.fleetfix.Counts;
import dev.fleetfix.report.Elapsed;
import dev.fleetfix.report.VerdictText;
import dev.fleetfix.report.model.ChangeReport;
import dev.fleetfix.report.model.ComparisonReport;
import dev.fleetfix.report.model.FleetComparisonReport;
import dev.fleetfix.report.model.FleetReport;
import dev.fleetfix.report.model.GateReport;
import dev.fleetfix.report.model.HostReport;
import dev.fleetfix.report.model.RunInfo;
import dev.fleetfix.report.model.StepReport;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * {@code report.html}: one self-contained page (inline CSS, inline SVG, no network): fleet summary,
 * per-host table, before/after latency plots for the fleet and per host, sweeps, step details.
 *
 * <p>Built from {@link Markup}: every value (host names, messages, test names that redis-benchmark
 * printed) is escaped unless it already is markup, so forgetting to escape is not possible.
 */
public final class HtmlPage {
    private HtmlPage() {}

    public static String render(FleetReport report) {
        RunInfo run = report.run();
        Markup head = el(
                "head",
                Markup.trusted("<meta charset=\"utf-8\">\n"
                        + "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"),
                el("title", "fleetfix report " + run.id()),
                Markup.trusted(
                        "\n<style>\n" + HtmlStyle.CSS + "</style>\n<script>\n" + HtmlStyle.ERROR_HOOK + "</script>\n"));
        Markup body = el(
                "body",
                header(report),
                summary(report),
                hostTable(report),
                BenchmarkSection.render(report),
                SweepSection.render(report.benchmarks()),
                details(report),
                el(
                        "footer",
                        "fleetfix report, schema_version " + report.schemaVersion()
                                + ". Percentile axes are logarithmic in 1/(1−p), as HdrHistogram plots are read."),
                Markup.trusted("\n<pre id=\"console-errors\" hidden></pre>\n<script>\n" + HtmlStyle.CHART_CHECK
                        + "</script>\n"));
        return "<!DOCTYPE html>\n" + el("html", attrs("lang", "en"), head, "\n", body) + "\n";
    }

    private static Markup header(FleetReport report) {
        RunInfo run = report.run();
        String outcome = run.outcome() == null ? "unfinished" : run.outcome();
        return el(
                "header",
                el(
                        "h1",
                        "fleetfix ",
                        el("span", attrs("class", "muted"), run.playbook()),
                        " ",
                        badge(outcome),
                        run.check() ? Markup.of(" ", badge("check mode")) : Markup.EMPTY),
                el(
                        "p",
                        attrs("class", "muted"),
                        "run " + run.id() + " · started " + run.startedAt() + " · "
                                + Elapsed.human(java.time.Duration.ofMillis(run.elapsedMs())) + " · forks "
                                + run.forks()),
                run.reason().isEmpty() ? Markup.EMPTY : el("p", attrs("class", "reason"), run.reason()));
    }

    private static Markup summary(FleetReport report) {
        Map<String, Long> outcomes = report.hosts().stream()
                .collect(Collectors.groupingBy(HostReport::outcome, LinkedHashMap::new, Collectors.counting()));
        List<Markup> cards = new ArrayList<>();
        cards.add(card("hosts", String.valueOf(report.hosts().size()), ""));
        cards.add(card("done", String.valueOf(outcomes.getOrDefault("done", 0L)), "ok"));
        cards.add(card("changed", String.valueOf(report.run().changed().size()), "changed"));
        long failed = outcomes.getOrDefault("failed", 0L) + outcomes.getOrDefault("unreachable", 0L);
        cards.add(card("failed", String.valueOf(failed), failed > 0 ? "bad" : ""));
        cards.add(card("untouched", String.valueOf(outcomes.getOrDefault("untouched", 0L)), ""));
        for (FleetComparisonReport f : report.benchmarks().fleet()) {
            cards.add(card(
                    f.name() + " · " + f.test(),
                    VerdictText.of(f.verdict(), f.reason()),
                    VerdictText.cssClass(f.verdict())));
        }
        List<Markup> reasons = new ArrayList<>();
        for (var play : report.plays()) {
            if (play.halted() != null) {
                reasons.add(el("p", attrs("class", "reason"), "play " + play.name() + " halted: " + play.halted()));
            }
            if (play.windowClosed() != null) {
                reasons.add(el(
                        "p",
                        attrs("class", "reason"),
                        "play " + play.name() + ": change window " + play.windowClosed()));
            }
        }
        return Markup.of(el("section", attrs("class", "cards"), cards), reasons);
    }

    private static Markup card(String label, String value, String cls) {
        return el(
                "div",
                attrs("class", "card " + cls),
                el("div", attrs("class", "value"), value),
                el("div", attrs("class", "label"), label));
    }

    private static Markup hostTable(FleetReport report) {
        List<Markup> rows = new ArrayList<>();
        for (HostReport host : report.hosts()) {
            List<String> changes = new ArrayList<>();
            for (StepReport s : host.steps()) {
                for (ChangeReport c : s.changes()) {
                    changes.add(c.what() + ": " + c.before() + " → " + c.after());
                }
            }
            List<Markup> bench = new ArrayList<>();
            for (ComparisonReport c : report.benchmarks().comparisons()) {
                if (c.host().equals(host.name())) {
                    bench.add(Markup.of(
                            bench.isEmpty() ? "" : Markup.trusted("<br>"),
                            c.test() + " ",
                            verdictBadge(c.verdict(), c.reason())));
                }
            }
            rows.add(el(
                    "tr",
                    el("td", attrs("class", "name"), host.name()),
                    el("td", badge(host.outcome())),
                    el("td", thp(host)),
                    el("td", changes.isEmpty() ? el("span", attrs("class", "muted"), "none") : lines(changes)),
                    el("td", bench.isEmpty() ? el("span", attrs("class", "muted"), "–") : Markup.of(bench)),
                    el("td", attrs("class", "failure"), host.reason())));
        }
        return el(
                "section",
                el("h2", "Hosts"),
                el(
                        "table",
                        attrs("class", "hosts"),
                        el(
                                "thead",
                                el(
                                        "tr",
                                        el("th", "host"),
                                        el("th", "outcome"),
                                        el("th", "THP before → after"),
                                        el("th", "changes"),
                                        el("th", "benchmark"),
                                        el("th", "failure"))),
                        el("tbody", rows)));
    }

    private static Markup thp(HostReport host) {
        String before = host.thpBefore() == null ? "?" : host.thpBefore();
        String after = host.thpAfter() == null ? "?" : host.thpAfter();
        String cls = "never".equals(after) ? "ok" : "bad";
        return Markup.of(el("code", before), " → ", el("code", attrs("class", cls), after));
    }

    private static Markup details(FleetReport report) {
        List<Markup> hosts = new ArrayList<>();
        for (HostReport host : report.hosts()) {
            List<Markup> rows = new ArrayList<>();
            for (StepReport s : host.steps()) {
                List<Object> cell = new ArrayList<>();
                cell.add(s.message());
                for (GateReport g : s.gates()) {
                    cell.add(Markup.trusted("<br>"));
                    cell.add("gate " + g.gate() + " ");
                    cell.add(badge(g.forecast() != null ? "forecast" : g.passed() ? "passed" : "failed"));
                    cell.add(" " + g.detail());
                    if (g.forecast() != null) {
                        cell.add(" (" + g.forecast() + ")");
                    }
                }
                rows.add(el(
                        "tr",
                        el("td", s.play() + " #" + s.index()),
                        el("td", s.name()),
                        el("td", badge(s.status())),
                        el("td", cell)));
            }
            List<Markup> facts = new ArrayList<>();
            host.facts().forEach((k, v) -> facts.add(Markup.of(el("code", k + "=" + v), " ")));
            hosts.add(el(
                    "details",
                    el(
                            "summary",
                            el("b", host.name()),
                            " ",
                            badge(host.outcome()),
                            " ",
                            el(
                                    "span",
                                    attrs("class", "muted"),
                                    Counts.of(host.steps().size(), "step"))),
                    el("table", attrs("class", "steps"), el("tbody", rows)),
                    facts.isEmpty() ? Markup.EMPTY : el("p", attrs("class", "facts"), facts)));
        }
        return el("section", el("h2", "Steps"), hosts);
    }

    private static Markup lines(List<String> items) {
        List<Object> parts = new ArrayList<>();
        for (String item : items) {
            if (!parts.isEmpty()) {
                parts.add(Markup.trusted("<br>"));
            }
            parts.add(text(item));
        }
        return Markup.of(parts);
    }

    /**
     * A verdict's badge: the word, and its reason as text inside it (not in a tooltip, so that print, screenshots
     * and touch screens keep it).
     */
    static Markup verdictBadge(String verdict, String reason) {
        return el(
                "span",
                attrs("class", "badge verdict " + VerdictText.cssClass(verdict)),
                VerdictText.word(verdict),
                reason == null
                        ? Markup.EMPTY
                        : el(
                                "span",
                                attrs("class", "why"),
                                VerdictText.of(verdict, reason)
                                        .substring(VerdictText.word(verdict).length())));
    }

    private static Markup badge(String word) {
        return el("span", attrs("class", "badge " + verdictClass(word)), word.replace('_', ' '));
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
}
