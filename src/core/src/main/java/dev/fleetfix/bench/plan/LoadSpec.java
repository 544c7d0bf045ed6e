package dev.fleetfix.bench.plan;

import dev.fleetfix.redis.load.Operation;
import java.time.Duration;
import java.util.EnumMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalLong;

/**
 * What the builtin generator does. Exactly one of {@code duration} and {@code requests} bounds the
 * measured part; the warm-up comes before it and is not measured.
 *
 * @param test name of the result ("SET", "MIX", "FORK-UNDER-LOAD")
 * @param connections client connections, one thread each (redis-benchmark {@code -c})
 * @param pipeline commands sent per round trip ({@code -P})
 * @param mix relative weights of the commands, e.g. SET 1, GET 1
 * @param valueSize bytes per SET/LPUSH value ({@code -d})
 * @param keyspace keys are drawn at random from this many per command family ({@code -r})
 * @param duration how long to measure
 * @param requests how many requests to measure
 * @param warmup load run before measuring, to fill connections and caches
 * @param rate requests per second over all connections; when set, the load is paced and latency is
 *     measured from each request's intended start, which corrects coordinated omission
 * @param keyPrefix every key written starts with it
 * @param seed for the key choice, so runs are repeatable
 */
public record LoadSpec(
        String test,
        int connections,
        int pipeline,
        Map<Operation, Integer> mix,
        int valueSize,
        long keyspace,
        Optional<Duration> duration,
        OptionalLong requests,
        Duration warmup,
        OptionalDouble rate,
        String keyPrefix,
        long seed) {

    public static final String DEFAULT_PREFIX = "fleetfix:bench:";
    public static final int MAX_VALUE_SIZE = 1 << 20;

    public LoadSpec {
        Objects.requireNonNull(test, "test");
        Objects.requireNonNull(duration, "duration");
        Objects.requireNonNull(requests, "requests");
        Objects.requireNonNull(warmup, "warmup");
        Objects.requireNonNull(rate, "rate");
        Objects.requireNonNull(keyPrefix, "keyPrefix");
        check(connections >= 1 && connections <= 10_000, "connections must be 1..10000, was " + connections);
        check(pipeline >= 1 && pipeline <= 100_000, "pipeline must be 1..100000, was " + pipeline);
        check(!mix.isEmpty(), "mix must name at least one command");
        mix.forEach((c, w) -> check(w != null && w > 0, "mix weight of " + c + " must be > 0, was " + w));
        mix = Map.copyOf(new EnumMap<>(mix));
        check(
                valueSize >= 1 && valueSize <= MAX_VALUE_SIZE,
                "valueSize must be 1.." + MAX_VALUE_SIZE + ", was " + valueSize);
        check(keyspace >= 1, "keyspace must be >= 1, was " + keyspace);
        check(duration.isPresent() != requests.isPresent(), "set exactly one of duration and requests");
        duration.ifPresent(d -> check(!d.isNegative() && !d.isZero(), "duration must be positive, was " + d));
        requests.ifPresent(n -> check(n >= 1, "requests must be >= 1, was " + n));
        check(!warmup.isNegative(), "warmup must not be negative, was " + warmup);
        rate.ifPresent(r -> check(r > 0 && !Double.isInfinite(r), "rate must be > 0, was " + r));
        check(!keyPrefix.isBlank(), "keyPrefix must not be blank");
    }

    /** 10 connections, no pipelining, SET and GET half each, 64-byte values over 100k keys, 2 s warm-up, 10 s. */
    public static LoadSpec defaults() {
        return new LoadSpec(
                "MIX",
                10,
                1,
                Map.of(Operation.SET, 1, Operation.GET, 1),
                64,
                100_000,
                Optional.of(Duration.ofSeconds(10)),
                OptionalLong.empty(),
                Duration.ofSeconds(2),
                OptionalDouble.empty(),
                DEFAULT_PREFIX,
                1);
    }

    /** A builder that starts from {@link #defaults()}. */
    public static Builder builder() {
        return defaults().toBuilder();
    }

    /** A builder that starts from this spec; {@link Builder#build()} validates as the constructor does. */
    public Builder toBuilder() {
        return new Builder(this);
    }

    // The withers that many call sites use for one field; each is one builder step. For more, use the builder.

    public LoadSpec withConnections(int n) {
        return toBuilder().connections(n).build();
    }

    public LoadSpec withValueSize(int bytes) {
        return toBuilder().valueSize(bytes).build();
    }

    public LoadSpec withKeyspace(long keys) {
        return toBuilder().keyspace(keys).build();
    }

    /** Bounds the measured part by time; clears any request count. */
    public LoadSpec withDuration(Duration d) {
        return toBuilder().duration(d).build();
    }

    /** Bounds the measured part by a request count; clears any duration. */
    public LoadSpec withRequests(long n) {
        return toBuilder().requests(n).build();
    }

    public LoadSpec withWarmup(Duration d) {
        return toBuilder().warmup(d).build();
    }

    public LoadSpec withKeyPrefix(String prefix) {
        return toBuilder().keyPrefix(prefix).build();
    }

    /**
     * Sets fields one at a time; nothing is checked until {@link #build()}, so a spec can pass through
     * states the record would refuse (e.g. both bounds while switching from one to the other).
     */
    public static final class Builder {
        private String test;
        private int connections;
        private int pipeline;
        private Map<Operation, Integer> mix;
        private int valueSize;
        private long keyspace;
        private Optional<Duration> duration;
        private OptionalLong requests;
        private Duration warmup;
        private OptionalDouble rate;
        private String keyPrefix;
        private long seed;

        private Builder(LoadSpec from) {
            test = from.test;
            connections = from.connections;
            pipeline = from.pipeline;
            mix = from.mix;
            valueSize = from.valueSize;
            keyspace = from.keyspace;
            duration = from.duration;
            requests = from.requests;
            warmup = from.warmup;
            rate = from.rate;
            keyPrefix = from.keyPrefix;
            seed = from.seed;
        }

        public Builder test(String name) {
            test = name;
            return this;
        }

        public Builder connections(int n) {
            connections = n;
            return this;
        }

        public Builder pipeline(int depth) {
            pipeline = depth;
            return this;
        }

        public Builder mix(Map<Operation, Integer> weights) {
            mix = weights;
            return this;
        }

        public Builder valueSize(int bytes) {
            valueSize = bytes;
            return this;
        }

        public Builder keyspace(long keys) {
            keyspace = keys;
            return this;
        }

        /** Bounds the measured part by time and clears any request count. */
        public Builder duration(Duration d) {
            duration = Optional.of(d);
            requests = OptionalLong.empty();
            return this;
        }

        /** Bounds the measured part by a request count and clears any duration. */
        public Builder requests(long n) {
            duration = Optional.empty();
            requests = OptionalLong.of(n);
            return this;
        }

        public Builder warmup(Duration d) {
            warmup = d;
            return this;
        }

        public Builder rate(double requestsPerSecond) {
            rate = OptionalDouble.of(requestsPerSecond);
            return this;
        }

        public Builder keyPrefix(String prefix) {
            keyPrefix = prefix;
            return this;
        }

        public Builder seed(long value) {
            seed = value;
            return this;
        }

        public LoadSpec build() {
            return new LoadSpec(
                    test,
                    connections,
                    pipeline,
                    mix,
                    valueSize,
                    keyspace,
                    duration,
                    requests,
                    warmup,
                    rate,
                    keyPrefix,
                    seed);
        }
    }

    private static void check(boolean ok, String message) {
        if (!ok) {
            throw new IllegalArgumentException(message);
        }
    }
}
