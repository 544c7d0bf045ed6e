package dev.fleetfix.report;

import dev.fleetfix.bench.BenchRun;
import dev.fleetfix.report.model.BenchmarkReport;
import dev.fleetfix.report.model.ComparisonReport;
import dev.fleetfix.report.model.MetricReport;
import dev.fleetfix.report.model.SweepComparisonReport;
import dev.fleetfix.report.model.SweepRowReport;
import java.io.PrintWriter;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * A sweep as text: per host and test, one row per point with the medians of its rounds, then each
 * point against its neighbour: the change of each figure with its interval, and the verdict.
 */
public final class SweepTable {
    /** The figures a comparison line shows. */
    static final List<String> FIGURES = List.of("rps", "p50", "p99", "p99.9");

    private SweepTable() {}

    /** The sweep of {@code fleetfix bench}'s rounds. */
    public static void write(PrintWriter out, String step, List<BenchRun> runs) {
        write(
                out,
                ReportModelMapper.benchmarks(runs.stream()
                        .map(r -> new ReportModelMapper.MeasuredRun(step, r))
                        .toList()));
    }

    static void write(PrintWriter out, BenchmarkReport report) {
        if (report.sweep().isEmpty()) {
            return;
        }
        out.println("SWEEP medians over rounds (latencies in ms); every round measured each point, in alternating"
                + " order");
        out.printf(
                Locale.ROOT,
                "%-16s %-16s %-24s %6s %10s %8s %8s %8s%n",
                "HOST",
                "TEST",
                "POINT",
                "ROUNDS",
                "RPS",
                "p50",
                "p99",
                "p99.9");
        for (SweepRowReport r : report.sweep()) {
            out.printf(
                    Locale.ROOT,
                    "%-16s %-16s %-24s %6d %10s %8s %8s %8s%n",
                    r.host(),
                    HostText.clean(r.test()),
                    r.point().label(),
                    r.rounds(),
                    String.format(Locale.ROOT, "%,.0f", r.rps()),
                    ms(r.p50()),
                    ms(r.p99()),
                    ms(r.p999()));
        }
        if (report.sweepComparisons().isEmpty()) {
            return;
        }
        out.println("each point against the one before it: change of the median [95 % interval]; slower or faster"
                + " needs p < alpha/comparisons after Holm, an interval without 0 and a change of at least 5 %");
        for (SweepComparisonReport c : report.sweepComparisons()) {
            out.println("  " + c.host() + " " + HostText.clean(c.test()) + " " + c.to().label() + " vs "
                    + c.from().label() + ": " + word(c.comparison()) + "; " + figures(c.comparison()));
        }
    }

    /** "rps −2.1 % [−3.0 %, −1.2 %] within noise, p99 ..." */
    static String figures(ComparisonReport c) {
        return c.metrics().stream()
                .filter(m -> Effects.shown(m, FIGURES) || unconfirmedMove(m))
                .map(m -> m.metric() + " " + change(m) + " "
                        + (m.decisive() ? word(m.verdict()) + Effects.whyNoiseDespiteInterval(m) : "(not decisive)"))
                .collect(Collectors.joining(", "));
    }

    /**
     * A sweep comparison's verdict in its own words: slower, faster, within noise, or unclear. Unclear is
     * a figure that moved by more than its floor with an interval that leaves out no change, yet did not
     * pass the test at the sweep's level (alpha split over its comparisons): "within noise" would claim
     * that nothing moved, while only the rounds are too few to tell.
     */
    static String word(ComparisonReport c) {
        if ("within_noise".equals(c.verdict()) && c.metrics().stream().anyMatch(SweepTable::unconfirmedMove)) {
            return UNCLEAR;
        }
        return word(c.verdict());
    }

    static final String UNCLEAR = "unclear";

    private static boolean unconfirmedMove(MetricReport m) {
        return m.decisive()
                && m.ratio() != null
                && m.low() != null
                && m.high() != null
                && (m.low() > 1 || m.high() < 1)
                && (m.floor() == null || Math.abs(m.ratio() - 1) >= m.floor());
    }

    /** A verdict in the sweep's words: the larger point is slower, faster, or within noise. */
    static String word(String verdict) {
        return switch (verdict) {
            case "regressed" -> "slower";
            case "improved" -> "faster";
            default -> "within noise";
        };
    }

    /** "−2.1 % [−3.0 %, −1.2 %]": one decimal, since the rumour in question is about 2 %. */
    static String change(MetricReport m) {
        if (m.ratio() == null) {
            return "n/a";
        }
        String interval = m.low() != null && m.high() != null ? " [" + pct(m.low()) + ", " + pct(m.high()) + "]" : "";
        return pct(m.ratio()) + interval;
    }

    static String pct(double ratio) {
        double p = Math.round((ratio - 1) * 1000) / 10.0;
        if (p == 0) {
            return "±0.0 %";
        }
        return (p > 0 ? "+" : "−") + String.format(Locale.ROOT, "%.1f", Math.abs(p)) + " %";
    }

    private static String ms(Double v) {
        return v == null ? "-" : String.format(Locale.ROOT, "%.3f", v);
    }
}
