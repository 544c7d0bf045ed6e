package dev.fleetfix.bench.verdict.stats;

/** The standard normal distribution's tail, which the rank test's approximation needs. */
final class Normal {
    /** Chebyshev coefficients of erfc, highest power first (fractional error below 1.2e-7). */
    private static final double[] ERFC = {
        0.17087277,
        -0.82215223,
        1.48851587,
        -1.13520398,
        0.27886807,
        -0.18628806,
        0.09678418,
        0.37409196,
        1.00002368,
        -1.26551223
    };

    private Normal() {}

    /** P(Z > z) for a standard normal Z. */
    static double upperTail(double z) {
        return 0.5 * erfc(z / Math.sqrt(2));
    }

    /** The complementary error function; far finer than any p-value a benchmark can justify. */
    static double erfc(double x) {
        double z = Math.abs(x);
        double t = 1 / (1 + 0.5 * z);
        double poly = 0;
        for (double c : ERFC) {
            poly = poly * t + c;
        }
        double r = t * Math.exp(-z * z + poly);
        return x >= 0 ? r : 2 - r;
    }
}
