package dev.fleetfix.report.model;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One benchmark test's figures.
 *
 * @param rps requests per second
 * @param requests requests measured; null when unknown
 * @param avgMs mean latency; null when not reported
 * @param minMs smallest latency; null when not reported
 * @param percentiles latency by percentile label: {@code p50}, {@code p90}, {@code p95}, {@code
 *     p99}, {@code p99.9}, {@code p99.99}, {@code max}; a label is absent when the source did not
 *     report it
 * @param distribution the cumulative latency distribution (percent, ms), by increasing latency;
 *     empty when the source printed none
 * @param histogram the base64 compressed HdrHistogram (microseconds) behind the figures; null
 *     when none
 * @param windows the round cut into windows, in order; empty when the engine has none
 * @param clientCpu the control node's CPU use during the round; null when not measured
 * @param errors error replies among the measured requests (counted in {@code rps} and {@code
 *     requests}); a round with any enters no verdict. 0 from redis-benchmark, which stops at its
 *     first error reply
 */
public record TestResultReport(
        String test,
        double rps,
        Long requests,
        Double avgMs,
        Double minMs,
        Map<String, Double> percentiles,
        List<LatencyPointReport> distribution,
        String histogram,
        List<WindowReport> windows,
        ClientCpuReport clientCpu,
        long errors) {
    public TestResultReport {
        windows = windows == null ? List.of() : List.copyOf(windows);
        Objects.requireNonNull(test, "test");
        percentiles = Collections.unmodifiableMap(new LinkedHashMap<>(percentiles));
        distribution = List.copyOf(distribution);
    }
}
