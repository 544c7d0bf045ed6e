package dev.fleetfix.report.html;

import static dev.fleetfix.report.html.Markup.attrs;
import static dev.fleetfix.report.html.Markup.el;

import dev.fleetfix.report.SweepTable;
import dev.fleetfix.report.model.BenchmarkReport;
import dev.fleetfix.report.model.ComparisonReport;
import dev.fleetfix.report.model.MetricReport;
import dev.fleetfix.report.model.SweepComparisonReport;
import dev.fleetfix.report.model.SweepRowReport;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;

/**
 * The HTML report's sweeps: per host and test, latency and throughput by value size (one line per
 * TCP_NODELAY setting), the medians per point, and each point against its neighbour with the
 * change, its interval and the verdict.
 */
final class SweepSection {
    private static final List<String> LATENCY_COLORS =
            List.of("#1971c2", "#d9480f", "#2b8a3e", "#862e9c", "#e67700", "#0c8599");
    private static final List<String> FIGURES = List.of("rps", "p50", "p99", "p99.9");

    private SweepSection() {}

    static Markup render(BenchmarkReport report) {
        if (report.sweep().isEmpty()) {
            return Markup.EMPTY;
        }
        Map<List<String>, List<SweepRowReport>> series = new LinkedHashMap<>();
        for (SweepRowReport r : report.sweep()) {
            series.computeIfAbsent(List.of(r.host(), r.name(), r.test()), k -> new ArrayList<>())
                    .add(r);
        }
        List<Markup> figures = new ArrayList<>();
        series.forEach((key, rows) -> figures.add(figure(key, rows, report.sweepComparisons())));
        return el(
                "section",
                attrs("class", "sweeps"),
                el("h2", "Sweeps: by value size"),
                el(
                        "p",
                        attrs("class", "note"),
                        "Medians over rounds; every round measured each point, in alternating order. Each point is"
                                + " compared with the one before it by the before/after machinery (window samples,"
                                + " rank and round tests, bootstrap interval, Holm, 5 % floor), alpha split over the"
                                + " comparisons."),
                el("div", attrs("class", "charts"), figures));
    }

    private static Markup figure(List<String> key, List<SweepRowReport> rows, List<SweepComparisonReport> all) {
        String title = key.get(0) + " · " + key.get(1) + " · " + key.get(2);
        List<SweepChart.Line> latency = new ArrayList<>();
        List<SweepChart.Line> throughput = new ArrayList<>();
        Map<String, List<SweepRowReport>> bySetting = new LinkedHashMap<>();
        for (SweepRowReport r : rows) {
            String setting = r.point().tcpNoDelay() == null
                    ? ""
                    : " (tcp_nodelay " + r.point().tcpNoDelay() + ")";
            bySetting.computeIfAbsent(setting, s -> new ArrayList<>()).add(r);
        }
        int color = 0;
        for (Map.Entry<String, List<SweepRowReport>> e : bySetting.entrySet()) {
            for (Map.Entry<String, Function<SweepRowReport, Double>> f : Map
                    .<String, Function<SweepRowReport, Double>>of(
                            "p50", SweepRowReport::p50, "p99", SweepRowReport::p99)
                    .entrySet()
                    .stream()
                    .sorted(Map.Entry.comparingByKey())
                    .toList()) {
                latency.add(new SweepChart.Line(
                        f.getKey() + e.getKey(),
                        LATENCY_COLORS.get(color++ % LATENCY_COLORS.size()),
                        points(e.getValue(), f.getValue())));
            }
            throughput.add(new SweepChart.Line(
                    "rps" + e.getKey(),
                    LATENCY_COLORS.get(color++ % LATENCY_COLORS.size()),
                    points(e.getValue(), SweepRowReport::rps)));
        }
        List<SweepComparisonReport> comparisons = all.stream()
                .filter(c -> c.host().equals(key.get(0))
                        && c.name().equals(key.get(1))
                        && c.test().equals(key.get(2)))
                .toList();
        return el(
                "figure",
                attrs("class", "plot sweep"),
                SweepChart.svg(title + " · latency", "ms", latency),
                SweepChart.svg(title + " · throughput", "requests per second", throughput),
                table(rows),
                comparisons(comparisons),
                largest(comparisons));
    }

    /** The largest effects of this series, named whatever their verdict (see {@link SweepTable#largestEffects}). */
    private static Markup largest(List<SweepComparisonReport> comparisons) {
        List<String> largest = SweepTable.largestEffects(comparisons, SweepTable.LARGEST);
        if (largest.isEmpty()) {
            return Markup.EMPTY;
        }
        return el(
                "div",
                attrs("class", "largest"),
                el("p", attrs("class", "note"), "largest effects, whatever their verdict:"),
                el("ul", largest.stream().map(l -> el("li", l)).toList()));
    }

    private static List<double[]> points(List<SweepRowReport> rows, Function<SweepRowReport, Double> figure) {
        List<double[]> points = new ArrayList<>();
        for (SweepRowReport r : rows) {
            Double v = figure.apply(r);
            if (v != null) {
                points.add(new double[] {r.point().valueSize(), v});
            }
        }
        return points;
    }

    private static Markup table(List<SweepRowReport> rows) {
        List<Markup> body = new ArrayList<>();
        for (SweepRowReport r : rows) {
            body.add(el(
                    "tr",
                    el("td", r.point().label()),
                    el("td", r.rounds()),
                    el("td", String.format(Locale.ROOT, "%,.0f", r.rps())),
                    el("td", ms(r.p50())),
                    el("td", ms(r.p99())),
                    el("td", ms(r.p999()))));
        }
        return el(
                "table",
                attrs("class", "metrics sweep-points"),
                el(
                        "thead",
                        el(
                                "tr",
                                el("th", "point"),
                                el("th", "rounds"),
                                el("th", "rps"),
                                el("th", "p50 ms"),
                                el("th", "p99 ms"),
                                el("th", "p99.9 ms"))),
                el("tbody", body));
    }

    private static Markup comparisons(List<SweepComparisonReport> comparisons) {
        if (comparisons.isEmpty()) {
            return Markup.EMPTY;
        }
        List<Markup> body = new ArrayList<>();
        for (SweepComparisonReport c : comparisons) {
            List<Markup> cells = new ArrayList<>();
            cells.add(el("td", c.to().label() + " vs " + c.from().label()));
            for (String figure : FIGURES) {
                MetricReport m = c.comparison().metrics().stream()
                        .filter(x -> x.metric().equals(figure))
                        .findFirst()
                        .orElse(null);
                cells.add(el(
                        "td",
                        m == null
                                ? Markup.text("–")
                                : Markup.of(
                                        SweepTable.change(m),
                                        m.decisive() ? "" : el("span", attrs("class", "muted"), " (not decisive)"))));
            }
            cells.add(el("td", badge(c.comparison())));
            body.add(el("tr", cells));
            for (String note : c.comparison().notes()) {
                body.add(el("tr", el("td", attrs("colspan", 6, "class", "note"), "note: " + note)));
            }
        }
        return el(
                "table",
                attrs("class", "metrics sweep-comparisons"),
                el(
                        "thead",
                        el(
                                "tr",
                                el("th", "against the one before"),
                                el("th", "rps [95 %]"),
                                el("th", "p50 [95 %]"),
                                el("th", "p99 [95 %]"),
                                el("th", "p99.9 [95 %]"),
                                el("th", "verdict"))),
                el("tbody", body));
    }

    /** The comparison's verdict with its reason as text, as every other badge. */
    static Markup badge(ComparisonReport c) {
        return HtmlPage.verdictBadge(c.verdict(), c.reason());
    }

    private static String ms(Double v) {
        return v == null ? "–" : String.format(Locale.ROOT, "%.3f", v);
    }
}
