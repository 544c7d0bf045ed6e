package dev.fleetfix.bench.verdict;

import dev.fleetfix.bench.BenchResult;
import dev.fleetfix.bench.plan.BenchRun;
import dev.fleetfix.bench.plan.SweepPoint;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The answers of a sweep: each point against its neighbour, judged by {@link BeforeAfter}'s
 * machinery (window samples, rank test and round t-test, bootstrap interval, Holm over the figures,
 * effect floor), so "does latency jump past 1 KiB?" is answered by 1024 B against 512 B and 2048 B
 * against 1024 B, each a measured change with its interval and one of the verdict words.
 *
 * <p>A sweep asks several questions of one host at once; each comparison is judged at {@code alpha}
 * divided by their number (Bonferroni), so that the chance of any false "changed" on a host whose
 * figures do not depend on the value size stays at most {@code alpha}.
 */
public final class Sweep {
    /** Orders points as tables and charts show them: TCP_NODELAY unset, on, off; then by value size. */
    public static final Comparator<SweepPoint> ORDER = Comparator.<SweepPoint>comparingInt(
                    p -> p.tcpNoDelay().map(on -> on ? 1 : 2).orElse(0))
            .thenComparingInt(SweepPoint::valueSize);

    private final BeforeAfter judge;

    public Sweep(BeforeAfter judge) {
        this.judge = judge;
    }

    /** One host's rounds of one sweep and one test, by point in {@link #ORDER}. */
    public record Series(String host, String name, String test, Map<SweepPoint, List<BenchResult>> points) {}

    /** The sweep rounds of {@code runs} (those with a point), grouped by host, name and test. */
    public static List<Series> series(Collection<BenchRun> runs) {
        Map<List<String>, Map<SweepPoint, List<BenchResult>>> grouped = new LinkedHashMap<>();
        for (BenchRun run : runs) {
            if (run.point().isEmpty()) {
                continue;
            }
            for (BenchResult result : run.results()) {
                grouped.computeIfAbsent(List.of(run.host(), run.name(), result.test()), k -> new TreeMap<>(ORDER))
                        .computeIfAbsent(run.point().get(), p -> new ArrayList<>())
                        .add(result);
            }
        }
        List<Series> series = new ArrayList<>();
        grouped.forEach((k, points) -> series.add(new Series(k.get(0), k.get(1), k.get(2), points)));
        return series;
    }

    /** Every neighbouring pair of every series: value sizes in a row, then TCP_NODELAY on against off. */
    public List<SweepComparison> compare(Collection<BenchRun> runs) {
        List<SweepComparison> all = new ArrayList<>();
        for (Series s : series(runs)) {
            List<SweepPoint[]> pairs = pairs(List.copyOf(s.points().keySet()));
            BeforeAfter strict =
                    // every round measures each point in turn: no drift between the sides of a pair
                    new BeforeAfter(judge.relativeNoise(), judge.alpha() / Math.max(1, pairs.size()), judge.level());
            for (SweepPoint[] pair : pairs) {
                TestComparison c = strict.compare(
                        s.host(),
                        s.name(),
                        s.test(),
                        s.points().get(pair[0]),
                        s.points().get(pair[1]));
                c = onlyAfterCorrection(c, pairs.size());
                String design = "sweep: " + pair[1].label() + " against " + pair[0].label()
                        + ", every round measuring each point in alternating order; alpha "
                        + judge.alpha() + " split over " + pairs.size() + " comparisons of this host and test";
                all.add(new SweepComparison(
                        s.host(),
                        s.name(),
                        s.test(),
                        pair[0].valueSize() == pair[1].valueSize()
                                ? SweepComparison.Factor.TCP_NODELAY
                                : SweepComparison.Factor.VALUE_SIZE,
                        pair[0],
                        pair[1],
                        new TestComparison(
                                c.host(),
                                c.name(),
                                c.test(),
                                c.beforeRounds(),
                                c.afterRounds(),
                                c.metrics(),
                                c.verdict(),
                                design,
                                c.calibration(),
                                c.notes(),
                                c.reason())));
            }
        }
        return all;
    }

    /**
     * A figure that moved past its floor with an interval that leaves out no change, and whose own p is below the
     * sweep's alpha, is withheld only by the correction for the sweep's many questions: its reason says so, and
     * how to settle it, rather than letting the largest effect of the sweep read like noise.
     */
    TestComparison onlyAfterCorrection(TestComparison c, int comparisons) {
        boolean any = false;
        List<MetricComparison> metrics = new ArrayList<>();
        for (MetricComparison m : c.metrics()) {
            boolean excludesOne = m.low() > 1 || m.high() < 1;
            if (m.verdict() == Verdict.INCONCLUSIVE
                    && m.decisive()
                    && m.withheld().isEmpty()
                    && excludesOne
                    && Math.abs(m.ratio() - 1) >= m.floor()
                    && m.p() < judge.alpha()) {
                any = true;
                m = m.inconclusiveBecause(String.format(
                        java.util.Locale.ROOT,
                        "%s (p %.2g alone, %.2g after Holm over the figures; the level is %s split over %d)",
                        onlyAfterCorrection(comparisons),
                        m.p(),
                        m.adjustedP(),
                        judge.alpha(),
                        comparisons));
            }
            metrics.add(m);
        }
        if (!any) {
            return c;
        }
        boolean saturated =
                c.reason().map(r -> r.contains(ComparisonWords.SATURATED)).orElse(false);
        return new TestComparison(
                c.host(),
                c.name(),
                c.test(),
                c.beforeRounds(),
                c.afterRounds(),
                metrics,
                c.verdict(),
                c.design(),
                c.calibration(),
                c.notes(),
                c.reason().map(r -> ComparisonWords.reason(metrics, saturated)));
    }

    /** "only after correction for 16 comparisons; rerun this point alone to confirm", the reason of an inconclusive */
    public static String onlyAfterCorrection(int comparisons) {
        return "only after correction for " + comparisons + " comparisons; rerun this point alone to confirm";
    }

    /** How many comparisons a host's sweep of {@code points} makes, which its alpha is split over. */
    public static int comparisons(Collection<SweepPoint> points) {
        return pairs(points.stream().sorted(ORDER).toList()).size();
    }

    /** Sizes in a row at each TCP_NODELAY setting; then at each size, on against off. */
    static List<SweepPoint[]> pairs(List<SweepPoint> ordered) {
        List<SweepPoint[]> pairs = new ArrayList<>();
        for (int i = 1; i < ordered.size(); i++) {
            SweepPoint a = ordered.get(i - 1);
            SweepPoint b = ordered.get(i);
            if (a.tcpNoDelay().equals(b.tcpNoDelay())) {
                pairs.add(new SweepPoint[] {a, b});
            }
        }
        for (SweepPoint on : ordered) {
            if (on.tcpNoDelay().equals(Optional.of(true))) {
                SweepPoint off = new SweepPoint(on.valueSize(), Optional.of(false));
                if (ordered.contains(off)) {
                    pairs.add(new SweepPoint[] {on, off});
                }
            }
        }
        return pairs;
    }
}
