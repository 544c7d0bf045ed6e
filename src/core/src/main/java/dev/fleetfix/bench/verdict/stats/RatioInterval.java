package dev.fleetfix.bench.verdict.stats;

import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

/**
 * A bootstrap confidence interval of median(after) / median(before), resampled in two stages:
 * rounds with replacement, then the windows of each drawn round with replacement.
 *
 * <p>Windows of one round share that round's conditions (the machine's load, the host's state), so
 * they are not independent; drawing whole rounds first lets the interval widen when the rounds of a
 * side disagree, instead of pretending each window were a fresh experiment. The generator is
 * seeded, so the same samples always give the same interval.
 */
public final class RatioInterval {
    public static final int RESAMPLES = 1000;

    private RatioInterval() {}

    /**
     * @param ratio the point estimate, median(after) / median(before) over all windows of each side
     * @param low lower bound of the interval
     * @param high upper bound of the interval
     */
    public record Result(double ratio, double low, double high) {
        public boolean excludesOne() {
            return low > 1 || high < 1;
        }
    }

    /**
     * @param before the before side's values, one array per round
     * @param after the after side's values, one array per round
     * @param level the interval's coverage, e.g. 0.95
     * @param seed the resampling seed
     */
    public static Result of(List<double[]> before, List<double[]> after, double level, long seed) {
        if (!(level > 0 && level < 1)) {
            throw new IllegalArgumentException("level must be in (0, 1), was " + level);
        }
        double b = Median.of(pool(before));
        double a = Median.of(pool(after));
        double ratio = ratio(a, b);
        SplittableRandom random = new SplittableRandom(seed);
        double[] ratios = new double[RESAMPLES];
        for (int i = 0; i < RESAMPLES; i++) {
            ratios[i] = ratio(Median.of(resample(after, random)), Median.of(resample(before, random)));
        }
        Arrays.sort(ratios);
        double tail = (1 - level) / 2;
        return new Result(ratio, quantile(ratios, tail), quantile(ratios, 1 - tail));
    }

    /** after / before; 1 when both are 0, infinite when only before is. */
    static double ratio(double after, double before) {
        if (before == 0) {
            return after == 0 ? 1 : Double.POSITIVE_INFINITY;
        }
        return after / before;
    }

    /** A two-stage bootstrap draw: rounds with replacement, then samples within each drawn round. */
    static double[] resample(List<double[]> rounds, SplittableRandom random) {
        int total = 0;
        double[][] drawn = new double[rounds.size()][];
        for (int r = 0; r < rounds.size(); r++) {
            drawn[r] = rounds.get(random.nextInt(rounds.size()));
            total += drawn[r].length;
        }
        double[] out = new double[total];
        int k = 0;
        for (double[] round : drawn) {
            for (int j = 0; j < round.length; j++) {
                out[k++] = round[random.nextInt(round.length)];
            }
        }
        return out;
    }

    static double[] pool(List<double[]> rounds) {
        return rounds.stream().flatMapToDouble(Arrays::stream).toArray();
    }

    /** Linear interpolation between order statistics of a sorted array. */
    static double quantile(double[] sorted, double q) {
        double pos = q * (sorted.length - 1);
        int lo = (int) Math.floor(pos);
        int hi = Math.min(sorted.length - 1, lo + 1);
        return sorted[lo] + (pos - lo) * (sorted[hi] - sorted[lo]);
    }
}
