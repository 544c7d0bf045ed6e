package dev.fleetfix.bench.load;

import dev.fleetfix.bench.BenchResult;
import java.time.Duration;
import java.util.Objects;

/**
 * What the builtin generator measured.
 *
 * @param result throughput and latencies of the measured part
 * @param errors error replies during the measured part
 * @param measured how long the measured part lasted
 */
public record LoadResult(BenchResult result, long errors, Duration measured) {
    public LoadResult {
        Objects.requireNonNull(result, "result");
        Objects.requireNonNull(measured, "measured");
        if (errors < 0) {
            throw new IllegalArgumentException("errors must be >= 0, was " + errors);
        }
    }
}
