package dev.fleetfix.bench.verdict.stats;

import java.util.Arrays;
import java.util.List;

/** The one median: the middle value, or the mean of the two middle values; NaN for no values. */
public final class Median {
    private Median() {}

    public static double of(double[] values) {
        if (values.length == 0) {
            return Double.NaN;
        }
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        int n = sorted.length;
        return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    }

    public static double of(List<Double> values) {
        return of(values.stream().mapToDouble(Double::doubleValue).toArray());
    }
}
