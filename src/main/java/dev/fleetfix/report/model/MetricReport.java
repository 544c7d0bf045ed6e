package dev.fleetfix.report.model;

import java.util.List;

/**
 * One figure before and after, over the rounds of each side.
 *
 * @param metric {@code rps}, {@code p50}, {@code p90}, {@code p99}, {@code p99.9}, {@code p99.99}
 *     or {@code max}
 * @param before the figure in each before round
 * @param after the figure in each after round
 * @param ratio after median / before median; null when the before median is 0
 * @param verdict {@code improved}, {@code regressed} or {@code within_noise}
 */
public record MetricReport(
        String metric,
        List<Double> before,
        List<Double> after,
        double beforeMedian,
        double afterMedian,
        double beforeSpread,
        double afterSpread,
        Double ratio,
        String verdict) {
    public MetricReport {
        before = List.copyOf(before);
        after = List.copyOf(after);
    }
}
