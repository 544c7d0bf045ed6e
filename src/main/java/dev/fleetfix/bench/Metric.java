package dev.fleetfix.bench;

import java.util.OptionalDouble;

/** The figures a benchmark is judged by: throughput and the latency percentiles that show THP's tail. */
public enum Metric {
    RPS("rps", Double.NaN),
    P50("p50", 50),
    P90("p90", 90),
    P99("p99", 99),
    P999("p99.9", 99.9),
    P9999("p99.99", 99.99),
    MAX("max", 100);

    private final String label;
    private final double percentile;

    Metric(String label, double percentile) {
        this.label = label;
        this.percentile = percentile;
    }

    public String label() {
        return label;
    }

    /** Throughput is better higher; latencies are better lower. */
    public boolean higherIsBetter() {
        return this == RPS;
    }

    public OptionalDouble valueOf(BenchResult result) {
        if (this == RPS) {
            return OptionalDouble.of(result.rps());
        }
        return result.latency().percentile(percentile);
    }
}
