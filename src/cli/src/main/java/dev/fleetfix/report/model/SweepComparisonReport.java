package dev.fleetfix.report.model;

import java.util.Objects;

/**
 * A point of a sweep against its neighbour on one host, for one test: {@code to} against {@code
 * from}, with the same figures, intervals and verdict as a before/after comparison ({@code from}
 * in the before columns, {@code to} in the after columns). {@code regressed} means slower at
 * {@code to}.
 *
 * @param factor {@code value_size} (the next larger size) or {@code tcp_nodelay} (off against on)
 * @param comparison the figures; its alpha is split over the host's comparisons of the sweep
 */
public record SweepComparisonReport(
        String host,
        String name,
        String test,
        String factor,
        SweepPointReport from,
        SweepPointReport to,
        ComparisonReport comparison) {
    public SweepComparisonReport {
        Objects.requireNonNull(comparison, "comparison");
    }
}
