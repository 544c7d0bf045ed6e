package dev.fleetfix.bench.verdict.stats;

import java.util.Arrays;
import java.util.List;
import org.apache.commons.statistics.ranking.NaturalRanking;
import org.apache.commons.statistics.ranking.TiesStrategy;

/**
 * The Mann–Whitney U (Wilcoxon rank-sum) test of two independent samples, two-sided, with the
 * normal approximation, the tie correction of the variance and a continuity correction.
 *
 * <p>It asks whether a value drawn from one side tends to be larger than one drawn from the other,
 * without assuming any distribution: latencies are skewed and heavy-tailed, which a t-test handles
 * badly. The normal approximation is good from about 8 values per side; with fewer it is reported
 * all the same, but callers should not let it decide (see {@link #MIN_PER_SIDE}).
 *
 * <p>Samples that come in clusters (the windows of one round share its conditions) are not
 * independent, and the plain test then finds differences that are only drift between rounds.
 * {@link #clustered} widens the test by the design effect {@code 1 + (m - 1) × ICC}, with the
 * intra-round correlation of the ranks estimated from the rounds of each side (one-way ANOVA).
 */
public final class RankTest {
    /** Below this many values on either side the approximation is too coarse to decide anything. */
    public static final int MIN_PER_SIDE = 5;

    /** Mid-ranks: tied values share the mean of the ranks they span. */
    private static final NaturalRanking MID_RANKS = new NaturalRanking(TiesStrategy.AVERAGE);

    private RankTest() {}

    /**
     * @param u the U statistic of the first sample (how many pairs it wins, ties counted half)
     * @param z the standardised statistic, continuity-corrected, signed (positive: first sample larger)
     * @param p two-sided p-value; 1 when every value is tied
     * @param variance the tie-corrected variance of U under no difference
     */
    public record Result(double u, double z, double p, double variance) {}

    /**
     * The clustered test and its design effect.
     *
     * @param designEffect how much the clustering inflates the variance of U, at least 1
     */
    public record Clustered(Result result, double designEffect) {}

    /**
     * The rank test of two sides given as rounds of windows, its variance inflated by the design
     * effect. With one round on a side the rounds' own variation cannot be estimated from that
     * side; it is estimated from the other side alone, or taken as none when both have one round.
     */
    public static Clustered clustered(List<double[]> first, List<double[]> second) {
        double[] a = flat(first);
        double[] b = flat(second);
        Result plain = mannWhitney(a, b);
        double[] ranks = ranks(a, b);
        double ssb = 0;
        double ssw = 0;
        int dfb = 0;
        int dfw = 0;
        int offset = 0;
        int clusters = 0;
        int values = 0;
        for (List<double[]> side : List.of(first, second)) {
            int sideSize = 0;
            double sideSum = 0;
            for (double[] round : side) {
                for (int i = 0; i < round.length; i++) {
                    sideSum += ranks[offset + sideSize + i];
                }
                sideSize += round.length;
            }
            double sideMean = sideSum / sideSize;
            int k = offset;
            for (double[] round : side) {
                double sum = 0;
                for (int i = 0; i < round.length; i++) {
                    sum += ranks[k + i];
                }
                double mean = sum / round.length;
                for (int i = 0; i < round.length; i++) {
                    ssw += (ranks[k + i] - mean) * (ranks[k + i] - mean);
                }
                ssb += round.length * (mean - sideMean) * (mean - sideMean);
                k += round.length;
            }
            dfb += side.size() - 1;
            dfw += sideSize - side.size();
            clusters += side.size();
            values += sideSize;
            offset += sideSize;
        }
        double deff = 1;
        if (dfb > 0 && dfw > 0) {
            double m = values / (double) clusters;
            double msb = ssb / dfb;
            double msw = ssw / dfw;
            double icc = msb + (m - 1) * msw > 0 ? (msb - msw) / (msb + (m - 1) * msw) : 0;
            deff = Math.max(1, 1 + (m - 1) * Math.min(1, icc));
        }
        double z = plain.z() / Math.sqrt(deff);
        double p = Math.min(1, 2 * Normal.upperTail(Math.abs(z)));
        return new Clustered(new Result(plain.u(), z, plain.variance() == 0 ? 1 : p, plain.variance() * deff), deff);
    }

    /**
     * The smallest two-sided p-value {@link #clustered} can give with {@code n1} and {@code n2} values and this
     * design effect: that of two sides that do not overlap at all. When it is not below a level, no change however
     * large can pass the test at that level with this design.
     */
    public static double smallestP(int n1, int n2, double designEffect) {
        double variance = n1 * (double) n2 * (n1 + n2 + 1) / 12.0 * Math.max(1, designEffect);
        double z = (n1 * (double) n2 / 2 - 0.5) / Math.sqrt(variance);
        return Math.min(1, 2 * Normal.upperTail(z));
    }

    private static double[] flat(List<double[]> rounds) {
        return rounds.stream().flatMapToDouble(Arrays::stream).toArray();
    }

    /** Mid-ranks of the values of both samples, in the order first then second. */
    static double[] ranks(double[] first, double[] second) {
        return MID_RANKS.apply(concat(first, second));
    }

    private static double[] concat(double[] first, double[] second) {
        double[] values = new double[first.length + second.length];
        System.arraycopy(first, 0, values, 0, first.length);
        System.arraycopy(second, 0, values, first.length, second.length);
        return values;
    }

    public static Result mannWhitney(double[] first, double[] second) {
        int n1 = first.length;
        int n2 = second.length;
        if (n1 == 0 || n2 == 0) {
            throw new IllegalArgumentException("both samples need at least one value, were " + n1 + " and " + n2);
        }
        int n = n1 + n2;
        double[] ranks = ranks(first, second);
        double rankSumFirst = 0;
        for (int i = 0; i < n1; i++) {
            rankSumFirst += ranks[i];
        }
        double[] sorted = concat(first, second);
        Arrays.sort(sorted);
        double tieTerm = 0; // sum of t^3 - t over groups of t tied values
        int i = 0;
        while (i < n) {
            int j = i;
            while (j + 1 < n && sorted[j + 1] == sorted[i]) {
                j++;
            }
            double t = j - i + 1;
            tieTerm += t * t * t - t;
            i = j + 1;
        }
        double u = rankSumFirst - n1 * (n1 + 1) / 2.0;
        double mean = n1 * (double) n2 / 2;
        double variance = n1 * (double) n2 / 12 * ((n + 1) - tieTerm / ((double) n * (n - 1)));
        if (!(variance > 0)) {
            return new Result(u, 0, 1, 0);
        }
        double diff = u - mean;
        double corrected = Math.max(0, Math.abs(diff) - 0.5);
        double z = Math.copySign(corrected / Math.sqrt(variance), diff);
        double p = Math.min(1, 2 * Normal.upperTail(Math.abs(z)));
        return new Result(u, z, p, variance);
    }
}
