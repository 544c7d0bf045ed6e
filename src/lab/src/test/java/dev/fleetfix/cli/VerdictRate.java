package dev.fleetfix.cli;

/**
 * Exact binomial tails for the lab tests that assert a verdict rate. Such a test counts false verdicts over
 * {@code n} comparisons and fails above a bound; the bound is chosen so that an implementation whose false-verdict
 * rate is the measured one fails the test with at most a stated probability, and the test's Javadoc states it.
 * The whole suite's budget is 0.1 % per CI run, split over these tests.
 */
final class VerdictRate {
    /** The false-verdict rate per comparison the lab measured (docs/benchmarks-and-verdicts.md), and the design's alpha. */
    static final double MEASURED = 0.01;

    private VerdictRate() {}

    /** P(X ≥ k) for X ~ Binomial(n, rate), summed exactly. */
    static double atLeast(int n, double rate, int k) {
        double sum = 0;
        for (int i = Math.max(0, k); i <= n; i++) {
            sum += Math.exp(logChoose(n, i) + i * Math.log(rate) + (n - i) * Math.log1p(-rate));
        }
        return Math.min(1, sum);
    }

    /** The fewest false verdicts {@code k} to allow so that P(X > k) is at most {@code falseFailure}. */
    static int allowed(int n, double rate, double falseFailure) {
        int k = 0;
        while (k < n && atLeast(n, rate, k + 1) > falseFailure) {
            k++;
        }
        return k;
    }

    private static double logChoose(int n, int k) {
        double s = 0;
        for (int i = 1; i <= k; i++) {
            s += Math.log(n - k + i) - Math.log(i);
        }
        return s;
    }
}
