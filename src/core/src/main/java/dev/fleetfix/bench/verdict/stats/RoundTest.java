package dev.fleetfix.bench.verdict.stats;

import java.util.List;
import org.apache.commons.statistics.distribution.TDistribution;

/**
 * Student's two-sample t-test on the log of each round's median: the round is the unit that is
 * independent (windows of one round share its conditions), so this test stays honest however much
 * the rounds drift, at the price of power with few rounds.
 */
public final class RoundTest {
    private RoundTest() {}

    /**
     * Two-sided p-value of the pooled-variance t-test of log(round medians); 1 when a side has one
     * round only (no degrees of freedom) or a median is not positive.
     */
    public static double p(List<double[]> before, List<double[]> after) {
        double[] b = logMedians(before);
        double[] a = logMedians(after);
        if (b == null || a == null) {
            return 1;
        }
        int df = b.length + a.length - 2;
        if (b.length < 2 || a.length < 2 || df < 1) {
            return 1;
        }
        double mb = mean(b);
        double ma = mean(a);
        double ss = sumSquares(b, mb) + sumSquares(a, ma);
        double se = Math.sqrt(ss / df * (1.0 / b.length + 1.0 / a.length));
        if (!(se > 0)) {
            return ma == mb ? 1 : 0;
        }
        double t = (ma - mb) / se;
        return twoSidedT(t, df);
    }

    /** The log of each round's median; null when a median is not positive (its log is not defined). */
    static double[] logMedians(List<double[]> rounds) {
        double[] out = new double[rounds.size()];
        for (int i = 0; i < out.length; i++) {
            double m = Median.of(rounds.get(i));
            if (!(m > 0)) {
                return null;
            }
            out[i] = Math.log(m);
        }
        return out;
    }

    private static double mean(double[] v) {
        double s = 0;
        for (double x : v) {
            s += x;
        }
        return s / v.length;
    }

    private static double sumSquares(double[] v, double mean) {
        double s = 0;
        for (double x : v) {
            s += (x - mean) * (x - mean);
        }
        return s;
    }

    /** P(|T| > |t|) for Student's t with {@code df} degrees of freedom. */
    static double twoSidedT(double t, double df) {
        return 2 * TDistribution.of(df).survivalProbability(Math.abs(t));
    }
}
