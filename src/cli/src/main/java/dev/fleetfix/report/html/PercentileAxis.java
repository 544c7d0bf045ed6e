package dev.fleetfix.report.html;

import java.util.Collection;

/**
 * The percentile axis of latency plots, read the way HdrHistogram plots are: logarithmic in {@code
 * 1/(1-p)}, so each "nine" gets the same width: 0% at 0, 90% at 1, 99% at 2, 99.9% at 3. The
 * maximum (100%) has no finite place; it is drawn at the axis end.
 */
final class PercentileAxis {
    static final int MIN_NINES = 3;
    static final int MAX_NINES = 6;

    private PercentileAxis() {}

    /** {@code log10(1/(1-p))} for a percentile p in [0, 100]; infinite at 100. */
    static double nines(double percentile) {
        if (!(percentile >= 0 && percentile <= 100)) {
            throw new IllegalArgumentException("percentile must be 0..100, was " + percentile);
        }
        if (percentile >= 100) {
            return Double.POSITIVE_INFINITY;
        }
        return -Math.log10(1 - percentile / 100);
    }

    /**
     * How many nines the axis spans for these percentiles: one beyond the deepest finite one, so
     * the maximum has its own place, between {@value #MIN_NINES} (99.9%) and {@value #MAX_NINES}.
     */
    static int span(Collection<Double> percentiles) {
        double deepest = percentiles.stream()
                .filter(p -> p < 100)
                .mapToDouble(PercentileAxis::nines)
                .max()
                .orElse(0);
        int span = (int) Math.floor(deepest + 1e-9) + 1;
        return Math.max(MIN_NINES, Math.min(MAX_NINES, span));
    }

    /** Where a percentile sits on an axis of {@code span} nines: clamped to the axis end. */
    static double position(double percentile, int span) {
        return Math.min(nines(percentile), span);
    }

    /** The label of tick {@code n}: 0%, 90%, 99%, 99.9%, 99.99%... */
    static String label(int n) {
        if (n < 0) {
            throw new IllegalArgumentException("tick must be >= 0, was " + n);
        }
        return switch (n) {
            case 0 -> "0%";
            case 1 -> "90%";
            case 2 -> "99%";
            default -> "99." + "9".repeat(n - 2) + "%";
        };
    }
}
