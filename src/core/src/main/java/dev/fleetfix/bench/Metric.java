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

    /**
     * The 99th percentile and above: on a shared machine these drift between two moments more than
     * throughput and the median do (see {@code verdict.Thresholds#DEFAULT}).
     */
    public boolean tail() {
        return this != RPS && percentile >= 99;
    }

    /** Throughput is better higher; latencies are better lower. */
    public boolean higherIsBetter() {
        return this == RPS;
    }

    /**
     * The share of requests above this percentile: a window must hold enough of them for its
     * percentile to be a measurement rather than one or two unlucky requests. 1 for throughput, 0
     * for the maximum (one request, never enough).
     */
    public double tailShare() {
        if (this == RPS) {
            return 1;
        }
        return (100 - percentile) / 100;
    }

    public double valueOf(WindowSample w) {
        return switch (this) {
            case RPS -> w.rps();
            case P50 -> w.p50();
            case P90 -> w.p90();
            case P99 -> w.p99();
            case P999 -> w.p999();
            case P9999 -> w.p9999();
            case MAX -> w.max();
        };
    }

    public OptionalDouble valueOf(BenchResult result) {
        if (this == RPS) {
            return OptionalDouble.of(result.rps());
        }
        return result.latency().percentile(percentile);
    }
}
