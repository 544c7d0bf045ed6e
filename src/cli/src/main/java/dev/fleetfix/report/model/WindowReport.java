package dev.fleetfix.report.model;

/**
 * One window of a benchmark round: the unit the before/after statistics sample. Latencies in ms.
 *
 * @param seconds how long the window lasted
 * @param requests requests completed in it
 */
public record WindowReport(
        double seconds, long requests, double p50, double p90, double p99, double p999, double p9999, double max) {}
