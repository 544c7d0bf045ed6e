package dev.fleetfix.report.model;

import java.util.List;

/**
 * One test of one named benchmark on one host, before against after.
 *
 * @param verdict {@code improved}, {@code regressed} or {@code within_noise}
 */
public record ComparisonReport(
        String host,
        String name,
        String test,
        int beforeRounds,
        int afterRounds,
        List<MetricReport> metrics,
        String verdict) {
    public ComparisonReport {
        metrics = List.copyOf(metrics);
    }
}
