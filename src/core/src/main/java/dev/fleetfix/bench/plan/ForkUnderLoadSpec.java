package dev.fleetfix.bench.plan;

import dev.fleetfix.redis.load.Operation;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;

/**
 * The {@code fork-under-load} profile: writes over a large random keyspace while BGSAVE forks at
 * intervals. After a fork every written page is copied; with THP those copies are 2 MB pages, and
 * the stalls show in the latency tail.
 *
 * @param load the write load; its test name becomes the result's name
 * @param bgsaveInterval pause between the end of one BGSAVE and the start of the next
 * @param bgsaveTimeout the longest a single BGSAVE may take before the run gives up on it
 */
public record ForkUnderLoadSpec(LoadSpec load, Duration bgsaveInterval, Duration bgsaveTimeout) {
    public static final String TEST = "FORK-UNDER-LOAD";

    public ForkUnderLoadSpec {
        Objects.requireNonNull(load, "load");
        Objects.requireNonNull(bgsaveInterval, "bgsaveInterval");
        Objects.requireNonNull(bgsaveTimeout, "bgsaveTimeout");
        if (bgsaveInterval.isNegative() || bgsaveInterval.isZero()) {
            throw new IllegalArgumentException("bgsaveInterval must be positive, was " + bgsaveInterval);
        }
        if (bgsaveTimeout.isNegative() || bgsaveTimeout.isZero()) {
            throw new IllegalArgumentException("bgsaveTimeout must be positive, was " + bgsaveTimeout);
        }
    }

    /** SET of 3-byte values over 5M keys from 50 connections for 30 s, BGSAVE every 1.5 s. */
    public static ForkUnderLoadSpec defaults() {
        LoadSpec load = LoadSpec.builder()
                .test(TEST)
                .connections(50)
                .mix(Map.of(Operation.SET, 1))
                .valueSize(3)
                .keyspace(5_000_000)
                .duration(Duration.ofSeconds(30))
                .build();
        return new ForkUnderLoadSpec(load, Duration.ofMillis(1500), Duration.ofMinutes(5));
    }

    public ForkUnderLoadSpec withLoad(LoadSpec newLoad) {
        return new ForkUnderLoadSpec(newLoad, bgsaveInterval, bgsaveTimeout);
    }

    public ForkUnderLoadSpec withBgsaveInterval(Duration interval) {
        return new ForkUnderLoadSpec(load, interval, bgsaveTimeout);
    }
}
