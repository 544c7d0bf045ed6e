package dev.fleetfix.bench.verdict.stats;

import java.util.List;

/**
 * Student's two-sample t-test on the log of each round's median: the round is the unit that is
 * independent (windows of one round share its conditions), so this test stays honest however much
 * the rounds drift, at the price of power with few rounds.
 */
public final class RoundTest {
    private static final double[] LANCZOS = {
        0.99999999999980993,
        676.5203681218851,
        -1259.1392167224028,
        771.32342877765313,
        -176.61502916214059,
        12.507343278686905,
        -0.13857109526572012,
        9.9843695780195716e-6,
        1.5056327351493116e-7
    };

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

    private static double[] logMedians(List<double[]> rounds) {
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
        return incompleteBeta(df / 2, 0.5, df / (df + t * t));
    }

    /** The regularised incomplete beta function I_x(a, b), by its continued fraction. */
    static double incompleteBeta(double a, double b, double x) {
        if (x <= 0) {
            return 0;
        }
        if (x >= 1) {
            return 1;
        }
        double front = Math.exp(logGamma(a + b) - logGamma(a) - logGamma(b) + a * Math.log(x) + b * Math.log1p(-x));
        if (x < (a + 1) / (a + b + 2)) {
            return front * continuedFraction(a, b, x) / a;
        }
        return 1 - front * continuedFraction(b, a, 1 - x) / b;
    }

    private static double continuedFraction(double a, double b, double x) {
        double tiny = 1e-300;
        double c = 1;
        double d = 1 - (a + b) * x / (a + 1);
        d = Math.abs(d) < tiny ? tiny : d;
        d = 1 / d;
        double h = d;
        for (int m = 1; m <= 300; m++) {
            int m2 = 2 * m;
            double aa = m * (b - m) * x / ((a + m2 - 1) * (a + m2));
            d = 1 + aa * d;
            d = Math.abs(d) < tiny ? tiny : d;
            c = 1 + aa / c;
            c = Math.abs(c) < tiny ? tiny : c;
            d = 1 / d;
            h *= d * c;
            aa = -(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1));
            d = 1 + aa * d;
            d = Math.abs(d) < tiny ? tiny : d;
            c = 1 + aa / c;
            c = Math.abs(c) < tiny ? tiny : c;
            d = 1 / d;
            double step = d * c;
            h *= step;
            if (Math.abs(step - 1) < 1e-14) {
                break;
            }
        }
        return h;
    }

    /** log Γ(x) for x > 0 (Lanczos, g = 7). */
    static double logGamma(double x) {
        if (x < 0.5) {
            return Math.log(Math.PI / Math.abs(Math.sin(Math.PI * x))) - logGamma(1 - x);
        }
        double z = x - 1;
        double sum = LANCZOS[0];
        for (int i = 1; i < LANCZOS.length; i++) {
            sum += LANCZOS[i] / (z + i);
        }
        double t = z + 7.5;
        return 0.5 * Math.log(2 * Math.PI) + (z + 0.5) * Math.log(t) - t + Math.log(sum);
    }
}
