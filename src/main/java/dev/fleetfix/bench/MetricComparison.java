package dev.fleetfix.bench;

import java.util.List;
import java.util.Objects;

/**
 * One figure before and after, over the rounds of each side.
 *
 * @param ratio after median / before median (below 1 is better for latencies, above 1 for rps)
 * @param beforeSpread max - min of the before rounds
 * @param afterSpread max - min of the after rounds
 */
public record MetricComparison(
        Metric metric,
        List<Double> before,
        List<Double> after,
        double beforeMedian,
        double afterMedian,
        double beforeSpread,
        double afterSpread,
        double ratio,
        Verdict verdict) {
    public MetricComparison {
        Objects.requireNonNull(metric, "metric");
        Objects.requireNonNull(verdict, "verdict");
        before = List.copyOf(before);
        after = List.copyOf(after);
    }
}
