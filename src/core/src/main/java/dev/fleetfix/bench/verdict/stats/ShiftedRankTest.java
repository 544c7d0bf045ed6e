package dev.fleetfix.bench.verdict.stats;

import java.util.Arrays;
import org.apache.commons.statistics.inference.AlternativeHypothesis;
import org.apache.commons.statistics.inference.MannWhitneyUTest;
import org.apache.commons.statistics.inference.PValueMethod;

/**
 * Exact Wilcoxon–Mann–Whitney tests of a shift between two small samples against a margin, from Apache Commons
 * Statistics: whether {@code after − before} lies beyond a margin (a change at least that large: the minimum-effect
 * test), and whether it lies within the margins on both sides (two one-sided tests, TOST: an equivalence test).
 *
 * <p>The samples are batch summaries (one per batch of consecutive windows, on a log scale), few and nearly
 * independent, so the exact null distribution applies, and the smallest p-value a design can give is known before
 * anything runs: one arrangement in {@code C(n1 + n2, n1)} for a one-sided test ({@link #smallestOneSided}). With
 * tied values Commons falls back to its normal approximation.
 */
public final class ShiftedRankTest {
    private static final MannWhitneyUTest EXACT =
            MannWhitneyUTest.withDefaults().with(PValueMethod.EXACT);

    private ShiftedRankTest() {}

    /** One-sided p of H0: the shift of {@code after} over {@code before} is at most {@code margin}. */
    public static double above(double[] after, double[] before, double margin) {
        return EXACT.with(AlternativeHypothesis.GREATER_THAN)
                .withMu(margin)
                .test(after, before)
                .getPValue();
    }

    /** One-sided p of H0: the shift of {@code after} over {@code before} is at least {@code margin}. */
    public static double below(double[] after, double[] before, double margin) {
        return EXACT.with(AlternativeHypothesis.LESS_THAN)
                .withMu(margin)
                .test(after, before)
                .getPValue();
    }

    /**
     * Two-sided p of H0: the shift lies within {@code [low, high]} (a change smaller than the margins), against a
     * change beyond either: twice the smaller of the two one-sided p-values, at most 1.
     */
    public static double beyond(double[] after, double[] before, double low, double high) {
        return Math.min(1, 2 * Math.min(above(after, before, high), below(after, before, low)));
    }

    /**
     * TOST p of H0: the shift lies outside {@code (low, high)}, against a shift within them: the larger of the two
     * one-sided p-values. Below a level, a change as large as the margins is ruled out at that level.
     */
    public static double within(double[] after, double[] before, double low, double high) {
        return Math.max(below(after, before, high), above(after, before, low));
    }

    /**
     * The smallest one-sided p any data can give with {@code n1} and {@code n2} samples: the test itself run on two
     * samples that do not overlap.
     */
    public static double smallestOneSided(int n1, int n2) {
        return above(separated(n1, 1_000_000), separated(n2, 0), 0);
    }

    /** The smallest p of {@link #beyond} with these sample sizes: twice {@link #smallestOneSided}. */
    public static double smallestTwoSided(int n1, int n2) {
        return Math.min(1, 2 * smallestOneSided(n1, n2));
    }

    private static double[] separated(int n, double from) {
        double[] v = new double[n];
        Arrays.setAll(v, i -> from + i);
        return v;
    }

    /**
     * The Hodges–Lehmann estimate of the shift: the median of every difference {@code after[i] − before[j]}.
     */
    public static double shift(double[] after, double[] before) {
        double[] d = differences(after, before);
        return Median.of(d);
    }

    /**
     * The exact distribution-free interval of the shift with at least {@code level} coverage (the shifts the
     * two-sided exact test does not reject): order statistics of the differences {@code after[i] − before[j]}.
     * {@code [−∞, ∞]} when the samples are too small for that coverage.
     */
    public static double[] interval(double[] after, double[] before, double level) {
        double[] d = differences(after, before);
        Arrays.sort(d);
        double tail = (1 - level) / 2;
        // the largest k such that the shift below the k-th smallest difference is rejected at one-sided tail:
        // P(U <= k - 1) <= tail under the null, found on the exact distribution through the test itself
        int k = 0;
        double[] a = separated(after.length, 0);
        double[] b = separated(before.length, 0);
        while (k < d.length && lowerTail(a, b, k) <= tail) {
            k++;
        }
        if (k == 0) {
            return new double[] {Double.NEGATIVE_INFINITY, Double.POSITIVE_INFINITY};
        }
        return new double[] {d[k - 1], d[d.length - k]};
    }

    /** P(U ≤ u) under no shift for samples of these sizes, by the exact test on an arrangement with that U. */
    private static double lowerTail(double[] a, double[] b, int u) {
        // a's values placed so that exactly u of the pairs (a[i], b[j]) have a[i] > b[j]
        int n1 = a.length;
        int n2 = b.length;
        double[] x = new double[n1];
        double[] y = new double[n2];
        for (int j = 0; j < n2; j++) {
            y[j] = 2 * j + 1;
        }
        int left = u;
        for (int i = n1 - 1; i >= 0; i--) {
            int above = Math.min(left, n2);
            x[i] = 2 * above; // above values of y lie below it
            left -= above;
        }
        if (left > 0) {
            return 1;
        }
        return EXACT.with(AlternativeHypothesis.LESS_THAN).test(x, y).getPValue();
    }

    private static double[] differences(double[] after, double[] before) {
        double[] d = new double[after.length * before.length];
        int k = 0;
        for (double a : after) {
            for (double b : before) {
                d[k++] = a - b;
            }
        }
        return d;
    }
}
