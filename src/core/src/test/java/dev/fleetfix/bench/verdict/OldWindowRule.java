package dev.fleetfix.bench.verdict;

import dev.fleetfix.bench.Metric;
import dev.fleetfix.bench.verdict.stats.Holm;
import dev.fleetfix.bench.verdict.stats.RankTest;
import dev.fleetfix.bench.verdict.stats.RatioInterval;
import dev.fleetfix.bench.verdict.stats.RoundTest;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * The verdict between two moments as it was before batches (issue 43), kept here only so that {@link
 * BatchDesignSimulationTest} can measure the old designs beside the shipped one on the same windows: windows as
 * samples; the larger p of the rank test over windows widened by the rounds' design effect ({@link
 * RankTest#clustered}) and Student's t over the rounds' log medians, Holm over the decisive figures at 0.01; the
 * seeded bootstrap interval of the ratio; a call needs that p, an interval without 1 lying wholly beyond the floor;
 * no change detected when the interval lies within the floor. A percentile decided when every window held 10 requests
 * above it. Its floors were those of the time: 20 %, 50 % from p99 up.
 */
final class OldWindowRule {
    private static final long SEED = 0x5eed_f1ee7L;

    /** The floors between two moments when the window rule was the verdict. */
    private static final Thresholds FLOORS = new Thresholds(0.05, 0.20, 0.50, 0.01, 0.95);

    private OldWindowRule() {}

    /** Per decisive figure, its verdict. */
    static Map<Metric, Verdict> judge(
            BenchmarkWindows model, Map<Metric, List<double[]>> before, Map<Metric, List<double[]>> after) {
        List<Metric> decisive = new ArrayList<>();
        for (Metric m : BenchmarkWindows.FIGURES) {
            if (model.decisive(m, before, after)) {
                decisive.add(m);
            }
        }
        double[] p = new double[decisive.size()];
        List<RatioInterval.Result> intervals = new ArrayList<>();
        for (int i = 0; i < p.length; i++) {
            Metric m = decisive.get(i);
            List<double[]> b = before.get(m);
            List<double[]> a = after.get(m);
            p[i] = Math.max(RankTest.clustered(b, a).result().p(), RoundTest.p(b, a));
            intervals.add(RatioInterval.of(b, a, 0.95, SEED + m.ordinal()));
        }
        double[] adjusted = Holm.adjust(p);
        Map<Metric, Verdict> out = new EnumMap<>(Metric.class);
        for (int i = 0; i < p.length; i++) {
            Metric m = decisive.get(i);
            RatioInterval.Result r = intervals.get(i);
            double floor = FLOORS.floor(m, Controls.NONE);
            boolean clears = r.low() >= 1 + floor || r.high() <= 1 - floor;
            Verdict v;
            if (adjusted[i] < 0.01 && clears) {
                boolean better = m.higherIsBetter() == r.ratio() > 1;
                v = better ? Verdict.IMPROVED : Verdict.REGRESSED;
            } else if (r.low() >= 1 - floor && r.high() <= 1 + floor) {
                v = Verdict.NO_CHANGE_DETECTED;
            } else {
                v = Verdict.INCONCLUSIVE;
            }
            out.put(m, v);
        }
        return out;
    }
}
