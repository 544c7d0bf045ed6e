package dev.fleetfix.report;

import dev.fleetfix.bench.plan.BenchRun;
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

    public static void write(PrintWriter out, BenchmarkReport report) {
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
        out.println("each point against the one before it: change of the median [95 % interval]; regressed (slower"
                + " at the later point) or improved needs p < alpha/comparisons after Holm, an interval without 0 and a"
                + " change of at least 5 %");
        for (SweepComparisonReport c : report.sweepComparisons()) {
            out.println("  " + c.host() + " " + HostText.clean(c.test()) + " " + c.to().label() + " vs "
                    + c.from().label() + ": " + word(c.comparison()) + "; " + figures(c.comparison()));
        }
        List<String> largest = largestEffects(report.sweepComparisons(), LARGEST);
        if (!largest.isEmpty()) {
            out.println("largest effects, whatever their verdict:");
            largest.forEach(l -> out.println("  " + l));
        }
    }

    /** How many of the largest effects a sweep names. */
    public static final int LARGEST = 3;

    /**
     * The {@code limit} largest changes of the decisive figures shown, largest first, each with its point and its
     * verdict: "8 KiB, TCP_NODELAY off vs on: rps −93.0 % [−94.0 %, −91.0 %]; inconclusive: only after correction
     * for 16 comparisons; rerun this point alone to confirm". So the sweep's biggest effect is named even when the
     * correction for its many questions withholds a verdict.
     */
    public static List<String> largestEffects(List<SweepComparisonReport> comparisons, int limit) {
        record Effect(SweepComparisonReport c, MetricReport m) {}
        return comparisons.stream()
                .flatMap(c -> c.comparison().metrics().stream()
                        .filter(m -> m.decisive() && m.ratio() != null && m.ratio() > 0 && FIGURES.contains(m.metric()))
                        .map(m -> new Effect(c, m)))
                .sorted(java.util.Comparator.comparingDouble((Effect e) -> -Math.abs(Math.log(e.m().ratio()))))
                .limit(limit)
                .map(e -> e.c().host() + " " + HostText.clean(e.c().test()) + " "
                        + e.c().to().label() + " vs "
                        + e.c().from().label() + ": " + e.m().metric() + " " + change(e.m()) + "; "
                        + VerdictText.of(e.m().verdict(), e.m().reason()))
                .toList();
    }

    /** "rps −2.1 % [−3.0 %, −1.2 %] no change detected, p99 ..." */
    static String figures(ComparisonReport c) {
        return c.metrics().stream()
                .filter(m -> Effects.shown(m, FIGURES) || unconfirmedMove(m))
                .map(m -> m.metric() + " " + change(m) + " "
                        + (m.decisive()
                                ? (unconfirmedMove(m) && m.reason() != null
                                        ? VerdictText.of(m.verdict(), m.reason())
                                        : VerdictText.word(m.verdict()))
                                : "(not decisive)"))
                .collect(Collectors.joining(", "));
    }

    /** A sweep comparison's verdict with its reason, in the words of every other output. */
    public static String word(ComparisonReport c) {
        return VerdictText.of(c.verdict(), c.reason());
    }

    /** A figure that moved past its floor with an interval that leaves out no change, yet was not called. */
    static boolean unconfirmedMove(MetricReport m) {
        return m.decisive()
                && m.ratio() != null
                && m.low() != null
                && m.high() != null
                && (m.low() > 1 || m.high() < 1)
                && (m.floor() == null || Math.abs(m.ratio() - 1) >= m.floor())
                && !VerdictText.called(m.verdict());
    }

    /** "−2.1 % [−3.0 %, −1.2 %]": one decimal, since the rumour in question is about 2 %. */
    public static String change(MetricReport m) {
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
