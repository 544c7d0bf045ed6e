package dev.fleetfix.bench.verdict;

import dev.fleetfix.bench.Metric;
import dev.fleetfix.bench.verdict.stats.Holm;
import dev.fleetfix.bench.verdict.stats.Median;
import dev.fleetfix.bench.verdict.stats.ShiftedRankTest;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The proposed before/after judge (issue 43): windows as samples, summarised in batches, with exact rank tests
 * against the effect floor both ways. Not yet what {@link BeforeAfter} uses; {@code BatchDesignSimulationTest}
 * measures both on the same simulated windows.
 *
 * <p>Before and after cannot alternate in a real remediation (the change happens once), so every sample comes from
 * within a side, and consecutive windows of a side are correlated (the load and the host drift slowly). Each side's
 * windows are therefore cut into batches of consecutive windows (each round, or each part of one), and a batch is
 * summarised by the median of its windows' logs: batches long against the windows' correlation are nearly
 * independent (the batch-means idea), and a median keeps a window's spike from moving its batch. On the batches:
 *
 * <ul>
 *   <li><b>a call</b> (improved or regressed): the exact rank test that the shift of the after batches over the
 *       before batches lies beyond the effect floor (a minimum-effect test: its null is "a change within the floor",
 *       not "no change", since two moments drift apart by less than the floor on their own), two-sided,
 *       Holm-corrected over the figures, below {@code alpha};
 *   <li><b>no change detected</b>: for every decisive figure, the two one-sided exact rank tests (TOST) that the shift
 *       lies within the floor, each below {@code equivalenceAlpha}. Claiming every figure equivalent is an
 *       intersection-union test: its level is {@code equivalenceAlpha} with no correction for the number of figures;
 *   <li>otherwise inconclusive.
 * </ul>
 *
 * <p>With {@code B} batches a side the smallest p of a call is {@code 2 / C(2B, B)} and of the equivalence test
 * {@code 1 / C(2B, B)}, known before anything runs ({@link DesignCheck}): 8 batches a side reach 0.00016 and
 * 0.00008, below Holm's first step over 6 figures at 0.01 (0.0017) and below 0.05.
 *
 * @param batchesPerRound how many batches of consecutive windows each round is cut into
 * @param alpha the family-wise level of a call, over the figures
 * @param equivalenceAlpha the level of "no change detected"
 * @param level the coverage of the shift's interval shown
 */
public record BatchJudge(int batchesPerRound, double alpha, double equivalenceAlpha, double level) {
    /**
     * Two batches a round (4 rounds of 3 s make 8 batches a side); calls at 0.01 over the figures, no change at
     * 0.05, 95 % intervals.
     */
    public static final BatchJudge PROPOSED = new BatchJudge(2, 0.01, 0.05, 0.95);

    public BatchJudge {
        if (batchesPerRound < 1) {
            throw new IllegalArgumentException("batchesPerRound must be at least 1, was " + batchesPerRound);
        }
        for (double v : new double[] {alpha, equivalenceAlpha, level}) {
            if (!(v > 0 && v < 1)) {
                throw new IllegalArgumentException("levels must be in (0, 1), was " + v);
            }
        }
    }

    /**
     * One decisive figure's windows on both sides.
     *
     * @param before the before side's window values, one array per round, in time order
     * @param after the after side's
     * @param floor the effect floor, 0.2 for 20 %
     */
    public record Figure(Metric metric, List<double[]> before, List<double[]> after, double floor) {
        public Figure {
            Objects.requireNonNull(metric, "metric");
            before = List.copyOf(before);
            after = List.copyOf(after);
        }
    }

    /**
     * A figure judged.
     *
     * @param ratio after / before: the exponential of the batches' Hodges–Lehmann shift
     * @param low lower end of the ratio's exact interval
     * @param high upper end
     * @param p two-sided p of a change beyond the floor
     * @param adjustedP {@code p} after Holm over the figures
     * @param equivalenceP the TOST p of a change within the floor
     */
    public record Judged(
            Metric metric,
            double ratio,
            double low,
            double high,
            double p,
            double adjustedP,
            double equivalenceP,
            Verdict verdict) {}

    /** The figures judged, and the test's verdict ({@link Verdict#combine}). */
    public record Result(List<Judged> figures, Verdict verdict) {}

    public Result judge(List<Figure> figures) {
        int k = figures.size();
        double[][] before = new double[k][];
        double[][] after = new double[k][];
        double[] p = new double[k];
        double[] same = new double[k];
        for (int i = 0; i < k; i++) {
            Figure f = figures.get(i);
            before[i] = batches(f.before(), batchesPerRound);
            after[i] = batches(f.after(), batchesPerRound);
            double low = Math.log(1 - f.floor());
            double high = Math.log(1 + f.floor());
            p[i] = ShiftedRankTest.beyond(after[i], before[i], low, high);
            same[i] = ShiftedRankTest.within(after[i], before[i], low, high);
        }
        double[] adjusted = Holm.adjust(p);
        List<Judged> judged = new ArrayList<>();
        for (int i = 0; i < k; i++) {
            Figure f = figures.get(i);
            double shift = ShiftedRankTest.shift(after[i], before[i]);
            double[] interval = ShiftedRankTest.interval(after[i], before[i], level);
            Verdict v;
            if (adjusted[i] < alpha) {
                boolean better = f.metric().higherIsBetter() == shift > 0;
                v = better ? Verdict.IMPROVED : Verdict.REGRESSED;
            } else if (same[i] < equivalenceAlpha) {
                v = Verdict.NO_CHANGE_DETECTED;
            } else {
                v = Verdict.INCONCLUSIVE;
            }
            judged.add(new Judged(
                    f.metric(),
                    Math.exp(shift),
                    Math.exp(interval[0]),
                    Math.exp(interval[1]),
                    p[i],
                    adjusted[i],
                    same[i],
                    v));
        }
        return new Result(
                judged, Verdict.combine(judged.stream().map(Judged::verdict).toList()));
    }

    /**
     * Each round cut into {@code perRound} batches of consecutive windows (the last takes what is left), each
     * summarised by the median of its values' logs. A value that is not positive counts as the smallest positive
     * double (a window with no latency above the percentile).
     */
    static double[] batches(List<double[]> rounds, int perRound) {
        List<Double> out = new ArrayList<>();
        for (double[] round : rounds) {
            int parts = Math.max(1, Math.min(perRound, round.length));
            int size = round.length / parts;
            for (int b = 0; b < parts; b++) {
                int from = b * size;
                int to = b == parts - 1 ? round.length : from + size;
                double[] logs = new double[to - from];
                for (int i = from; i < to; i++) {
                    logs[i - from] = Math.log(Math.max(Double.MIN_NORMAL, round[i]));
                }
                out.add(Median.of(logs));
            }
        }
        return out.stream().mapToDouble(Double::doubleValue).toArray();
    }
}
