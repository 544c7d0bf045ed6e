package dev.fleetfix.bench.plan;

import dev.fleetfix.redis.load.Operation;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.OptionalInt;
import java.util.OptionalLong;

/**
 * A run of redis-benchmark on a host: its own options, passed through.
 *
 * @param address the address Redis listens on, as seen from the host itself
 * @param port Redis port
 * @param tests the tests ({@code -t}); each is run as a custom command on prefixed keys
 * @param requests {@code -n}
 * @param clients {@code -c}
 * @param dataSize {@code -d}, bytes per value
 * @param pipeline {@code -P}
 * @param keyspace {@code -r}, random keys out of this many
 * @param threads {@code --threads} (redis-benchmark 6.0+)
 * @param keyPrefix every key written starts with it
 * @param timeout how long one test may run
 */
public record RedisBenchmarkSpec(
        String address,
        int port,
        List<Operation> tests,
        long requests,
        int clients,
        int dataSize,
        int pipeline,
        OptionalLong keyspace,
        OptionalInt threads,
        String keyPrefix,
        Duration timeout) {

    public RedisBenchmarkSpec {
        Objects.requireNonNull(address, "address");
        Objects.requireNonNull(keyspace, "keyspace");
        Objects.requireNonNull(threads, "threads");
        Objects.requireNonNull(keyPrefix, "keyPrefix");
        Objects.requireNonNull(timeout, "timeout");
        tests = List.copyOf(tests);
        check(!tests.isEmpty(), "tests must name at least one of set, get, incr, lpush");
        check(port >= 1 && port <= 65535, "port must be 1..65535, was " + port);
        check(requests >= 1, "requests (-n) must be >= 1, was " + requests);
        check(clients >= 1, "clients (-c) must be >= 1, was " + clients);
        check(dataSize >= 1 && dataSize <= 64 * 1024, "dataSize (-d) must be 1..65536, was " + dataSize);
        check(pipeline >= 1, "pipeline (-P) must be >= 1, was " + pipeline);
        keyspace.ifPresent(r -> check(r >= 1, "keyspace (-r) must be >= 1, was " + r));
        threads.ifPresent(t -> check(t >= 1, "threads must be >= 1, was " + t));
        check(!keyPrefix.isBlank(), "keyPrefix must not be blank");
    }

    /** SET and GET, 100k requests, 50 clients, 3 bytes, random keys out of 100k: redis-benchmark's defaults plus -r. */
    public static RedisBenchmarkSpec defaults(String address, int port) {
        return new RedisBenchmarkSpec(
                address,
                port,
                List.of(Operation.SET, Operation.GET),
                100_000,
                50,
                3,
                1,
                OptionalLong.of(100_000),
                OptionalInt.empty(),
                LoadSpec.DEFAULT_PREFIX,
                Duration.ofMinutes(10));
    }

    public RedisBenchmarkSpec withTests(List<Operation> newTests) {
        return new RedisBenchmarkSpec(
                address, port, newTests, requests, clients, dataSize, pipeline, keyspace, threads, keyPrefix, timeout);
    }

    public RedisBenchmarkSpec withRequests(long n) {
        return new RedisBenchmarkSpec(
                address, port, tests, n, clients, dataSize, pipeline, keyspace, threads, keyPrefix, timeout);
    }

    public RedisBenchmarkSpec withClients(int c) {
        return new RedisBenchmarkSpec(
                address, port, tests, requests, c, dataSize, pipeline, keyspace, threads, keyPrefix, timeout);
    }

    public RedisBenchmarkSpec withPipeline(int p) {
        return new RedisBenchmarkSpec(
                address, port, tests, requests, clients, dataSize, p, keyspace, threads, keyPrefix, timeout);
    }

    public RedisBenchmarkSpec withThreads(int t) {
        return new RedisBenchmarkSpec(
                address,
                port,
                tests,
                requests,
                clients,
                dataSize,
                pipeline,
                keyspace,
                OptionalInt.of(t),
                keyPrefix,
                timeout);
    }

    public RedisBenchmarkSpec withDataSize(int bytes) {
        return new RedisBenchmarkSpec(
                address, port, tests, requests, clients, bytes, pipeline, keyspace, threads, keyPrefix, timeout);
    }

    public RedisBenchmarkSpec withKeyPrefix(String prefix) {
        return new RedisBenchmarkSpec(
                address, port, tests, requests, clients, dataSize, pipeline, keyspace, threads, prefix, timeout);
    }

    private static void check(boolean ok, String message) {
        if (!ok) {
            throw new IllegalArgumentException(message);
        }
    }
}
