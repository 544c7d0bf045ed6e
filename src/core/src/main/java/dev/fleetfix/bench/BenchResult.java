package dev.fleetfix.bench;

import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * The outcome of one benchmark test (SET, GET, ... or a profile such as {@code fork-under-load}).
 *
 * @param test the test name, upper-case with single spaces ("SET", "LPUSH (NEEDED TO BENCHMARK LRANGE)")
 * @param rps requests per second
 * @param requests how many requests were measured, when known
 * @param latency the latency figures
 * @param windows the same load cut into short windows, in order; empty when the engine cannot
 *     (redis-benchmark prints one summary)
 * @param clientCpu how busy this machine was while it generated the load; empty when not measured
 * @param errors error replies among the measured requests (OOM, READONLY, ...): a round with any is
 *     reported but never enters a verdict; its rps counts them as requests. redis-benchmark stops at
 *     its first error reply, so its results have none
 */
public record BenchResult(
        String test,
        double rps,
        OptionalLong requests,
        Latency latency,
        List<WindowSample> windows,
        Optional<ClientCpu> clientCpu,
        long errors) {

    public BenchResult(String test, double rps, OptionalLong requests, Latency latency) {
        this(test, rps, requests, latency, List.of(), Optional.empty());
    }

    /** A result without error replies. */
    public BenchResult(
            String test,
            double rps,
            OptionalLong requests,
            Latency latency,
            List<WindowSample> windows,
            Optional<ClientCpu> clientCpu) {
        this(test, rps, requests, latency, windows, clientCpu, 0);
    }

    public BenchResult {
        Objects.requireNonNull(clientCpu, "clientCpu");
        windows = List.copyOf(windows);
        Objects.requireNonNull(test, "test");
        Objects.requireNonNull(requests, "requests");
        Objects.requireNonNull(latency, "latency");
        test = normalizeName(test);
        if (test.isEmpty()) {
            throw new IllegalArgumentException("test name must not be blank");
        }
        if (errors < 0) {
            throw new IllegalArgumentException("test " + test + ": errors must be >= 0, was " + errors);
        }
        if (!(rps >= 0) || Double.isInfinite(rps)) {
            throw new IllegalArgumentException("test " + test + ": rps must be a finite value >= 0, was " + rps);
        }
    }

    /** Test names as redis-benchmark versions print them differ in case and spacing; compare them normalized. */
    public static String normalizeName(String name) {
        return name.replace('\u00a0', ' ')
                .strip()
                .replaceAll("\\s+", " ")
                .replace("( ", "(")
                .replace(" )", ")")
                .toUpperCase(Locale.ROOT);
    }

    public BenchResult renamed(String newName) {
        return new BenchResult(newName, rps, requests, latency, windows, clientCpu, errors);
    }
}
