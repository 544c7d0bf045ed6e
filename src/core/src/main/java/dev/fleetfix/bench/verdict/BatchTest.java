package dev.fleetfix.bench.verdict;

import dev.fleetfix.bench.verdict.stats.ShiftedRankTest;
import java.util.ArrayList;
import java.util.List;

/**
 * The before/after test of one figure between two moments (issue 43): windows as samples, summarised in batches,
 * with exact rank tests against the effect floor both ways.
 *
 * <p>Before and after cannot alternate in a real remediation (the change happens once), so every sample comes from
 * within a side, and consecutive windows of a side are correlated (the load and the host drift slowly). Each side's
 * windows are therefore cut into batches of consecutive windows ({@link #PER_ROUND} a round), and a batch is
 * summarised by the mean of its windows' values (the batch-means idea: batches long against the windows' correlation
 * are nearly independent), compared on a log scale. The mean, not the median: a batch's throughput is its windows'
 * mean, and its tail percentile then rests on every window's requests above it, where the median of five windows
 * rests on one window's dozen. On the lab's A/A pairs the median's batches of p99.9 spread 0.41 (standard deviation
 * of the log within a side), the mean's 0.24, and p99.9 stopped blocking "no change detected" in half the pairs it
 * blocked; see docs/benchmarks-and-verdicts.md. On the batches:
 *
 * <ul>
 *   <li>{@link Result#p()}: the exact rank test that the shift of the after batches over the before batches lies
 *       beyond the effect floor (a minimum-effect test: its null is "a change within the floor", not "no change",
 *       since two moments drift apart by less than the floor on their own), two-sided; {@link FigureJudge} calls a
 *       change when it is below {@code alpha} after Holm over the figures;
 *   <li>{@link Result#equivalenceP()}: the two one-sided exact rank tests (TOST) that the shift lies within the
 *       floor; "no change detected" when every decisive figure's is below {@link Thresholds#EQUIVALENCE_ALPHA}
 *       (an intersection-union test: its level needs no correction for the number of figures).
 * </ul>
 *
 * <p>With {@code B} batches a side the smallest p of a call is {@code 2 / C(2B, B)} and of the equivalence test
 * {@code 1 / C(2B, B)}, known before anything runs ({@link DesignCheck}): 8 batches a side reach 0.00016 and
 * 0.00008, below Holm's first step over 6 figures at 0.01 (0.0017) and below 0.05.
 */
final class BatchTest {
    /**
     * Batches a round with windows: two, so 4 rounds of 3 s (ten 300 ms windows each) make 8 batches of 1.5 s a
     * side. Chosen on simulated lab windows (BatchDesignSimulationTest) against one batch a round at 8 rounds of
     * 2 s: the same false calls and throttle calls, and the p99.9 tail called 85 of 100 times instead of 1.
     */
    static final int PER_ROUND = 2;

    private BatchTest() {}

    /**
     * One figure judged on its batches.
     *
     * @param ratio after / before: the exponential of the batches' Hodges–Lehmann shift
     * @param low lower end of the ratio's exact interval (at least {@code level} coverage)
     * @param high upper end
     * @param p two-sided p of a change beyond the floor
     * @param equivalenceP the TOST p of a change within the floor
     */
    record Result(double ratio, double low, double high, double p, double equivalenceP) {}

    /**
     * @param before the before side's batch summaries ({@link #batches}), logs
     * @param after the after side's
     * @param floor the effect floor, 0.2 for 20 %: a shift within {@code [log(1 − floor), log(1 + floor)]} is no
     *     change that matters
     */
    static Result of(double[] before, double[] after, double floor, double level) {
        double low = Math.log(1 - floor);
        double high = Math.log(1 + floor);
        double[] interval = ShiftedRankTest.interval(after, before, level);
        return new Result(
                Math.exp(ShiftedRankTest.shift(after, before)),
                Math.exp(interval[0]),
                Math.exp(interval[1]),
                ShiftedRankTest.beyond(after, before, low, high),
                ShiftedRankTest.within(after, before, low, high));
    }

    /**
     * Each round cut into {@code perRound} batches of consecutive windows (the last takes what is left), each
     * summarised by the log of the mean of its values. A mean that is not positive counts as the smallest positive
     * double (windows with no latency above the percentile).
     */
    static double[] batches(List<double[]> rounds, int perRound) {
        List<Double> out = new ArrayList<>();
        for (double[] round : rounds) {
            for (int[] b : bounds(round.length, perRound)) {
                double sum = 0;
                for (int i = b[0]; i < b[1]; i++) {
                    sum += round[i];
                }
                out.add(Math.log(Math.max(Double.MIN_NORMAL, sum / (b[1] - b[0]))));
            }
        }
        return out.stream().mapToDouble(Double::doubleValue).toArray();
    }

    /** The {@code [from, to)} windows of each batch of a round of {@code windows} windows. */
    static List<int[]> bounds(int windows, int perRound) {
        int parts = Math.max(1, Math.min(perRound, windows));
        int size = windows / parts;
        List<int[]> out = new ArrayList<>();
        for (int b = 0; b < parts; b++) {
            int from = b * size;
            out.add(new int[] {from, b == parts - 1 ? windows : from + size});
        }
        return out;
    }
}
