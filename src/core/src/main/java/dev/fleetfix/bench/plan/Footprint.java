package dev.fleetfix.bench.plan;

import dev.fleetfix.redis.load.Operation;
import dev.fleetfix.redis.load.RunKeys;
import java.util.Locale;
import java.util.OptionalLong;

/**
 * How much of Redis's {@code used_memory} a benchmark run's keys and connections can take at most,
 * estimated before it writes anything, so that {@link SafetyGuard} can compare it with the room
 * left below {@code maxmemory}. Every figure rounds up: a key costs its dict entry, its robj and
 * the hash table's share (rehashing included), the key name and the value as sds strings in
 * jemalloc's size classes (which round up by as much as a quarter); each connection its client
 * struct and a pipeline's worth of query and reply buffers. It lands at or just above what Redis
 * with jemalloc was measured to take ({@code bench/benchmark-footprint.sh}), so it is an estimate,
 * not a bound with room to spare: {@link SafetyGuard} adds its margin.
 *
 * @param keys keys the run may create
 * @param bytes bytes it may add to {@code used_memory}, before any margin
 * @param bounded false when the run's growth has no bound that can be known beforehand (LPUSH for a
 *     duration: its lists grow for as long as it runs); {@code bytes} then counts only the rest
 * @param what the estimate in words, for a refusal ("200,000 keys of 2,048-byte values, about 509.9 MiB with
 *     their connections")
 */
public record Footprint(long keys, long bytes, boolean bounded, String what) {
    /** dictEntry (32 in its size class), robj (16) and up to two hash-table slots while rehashing (16). */
    static final long PER_KEY = 64;

    /** A client struct with its static reply buffer. */
    static final long PER_CONNECTION = 24 * 1024;

    /** A listpack entry's own header and back-length bytes around the value. */
    static final long PER_LIST_ENTRY = 11;

    /** A quicklist and its first node, per list key. */
    static final long PER_LIST = 128;

    public static final Footprint NONE = new Footprint(0, 0, true, "nothing");

    /** The builtin load: the key families its mix writes, and its connections. */
    public static Footprint of(LoadSpec spec) {
        String keyName = Operation.SET.key(RunKeys.under(spec.keyPrefix()), spec.keyspace());
        // with a request bound and no warm-up no more keys can be written than requests are sent
        OptionalLong requests = spec.warmup().isZero() ? spec.requests() : OptionalLong.empty();
        long keysPerFamily = Math.min(spec.keyspace(), requests.orElse(Long.MAX_VALUE));
        long keys = 0;
        long bytes = connections(spec.connections(), spec.pipeline(), keyName.length(), spec.valueSize());
        boolean bounded = true;
        if (spec.mix().containsKey(Operation.SET)) {
            keys += keysPerFamily;
            bytes += keysPerFamily * stringKey(keyName.length(), spec.valueSize());
        }
        if (spec.mix().containsKey(Operation.INCR)) {
            keys += keysPerFamily;
            bytes += keysPerFamily * counterKey(keyName.length());
        }
        if (spec.mix().containsKey(Operation.LPUSH)) {
            if (requests.isEmpty()) {
                bounded = false;
            } else {
                keys += keysPerFamily;
                bytes += lists(keysPerFamily, requests.getAsLong(), keyName.length(), spec.valueSize());
            }
        }
        return new Footprint(keys, bytes, bounded, describe(keys, bytes, spec.valueSize()));
    }

    /** A redis-benchmark run: its tests one after the other, their keys deleted only after the last. */
    public static Footprint of(RedisBenchmarkSpec spec) {
        String keyName = Operation.SET.key(
                RunKeys.under(spec.keyPrefix()), spec.keyspace().orElse(1));
        // without -r every request writes the one key "...__rand_int__"
        long keysPerFamily = Math.min(spec.keyspace().orElse(1), spec.requests());
        long keys = 0;
        long bytes = connections(spec.clients(), spec.pipeline(), keyName.length(), spec.dataSize());
        boolean strings = false;
        for (Operation test : spec.tests()) {
            switch (test) {
                case SET -> strings = true;
                case GET -> {}
                case INCR -> {
                    keys += keysPerFamily;
                    bytes += keysPerFamily * counterKey(keyName.length());
                }
                case LPUSH -> {
                    keys += keysPerFamily;
                    bytes += lists(keysPerFamily, spec.requests(), keyName.length(), spec.dataSize());
                }
            }
        }
        if (strings) {
            keys += keysPerFamily;
            bytes += keysPerFamily * stringKey(keyName.length(), spec.dataSize());
        }
        return new Footprint(keys, bytes, true, describe(keys, bytes, spec.dataSize()));
    }

    /** What a plan's rounds need at most: the largest point of a sweep, the profile's own load. */
    public static Footprint of(BenchPlan plan) {
        if (!plan.isSweep()) {
            return ofOne(plan);
        }
        Footprint largest = NONE;
        for (SweepPoint point : plan.sweep()) {
            largest = largest.orLarger(ofOne(plan.at(point)));
        }
        return largest;
    }

    private static Footprint ofOne(BenchPlan plan) {
        if (plan.engine() == BenchPlan.Engine.REDIS_BENCHMARK) {
            return of(plan.redisBenchmark());
        }
        LoadSpec load = plan.profile() == BenchPlan.Profile.FORK_UNDER_LOAD
                ? plan.forkUnderLoad().load()
                : plan.load();
        // HostBenchmark warms the builtin client up for a time first: no request bound holds then
        return of(load.warmup().isZero() ? load.withWarmup(BenchPlan.CLIENT_WARMUP) : load);
    }

    /** The larger of two: one whose growth has no bound is larger than any bounded one. */
    private Footprint orLarger(Footprint other) {
        if (bounded != other.bounded) {
            return bounded ? other : this;
        }
        return other.bytes > bytes ? other : this;
    }

    /** A string key: its name and value as sds strings, beside the per-key structures. */
    static long stringKey(int keyLength, int valueSize) {
        return PER_KEY + jemalloc(sds(keyLength)) + jemalloc(sds(valueSize));
    }

    /** An INCR counter: the integer lives in the robj itself. */
    static long counterKey(int keyLength) {
        return PER_KEY + jemalloc(sds(keyLength));
    }

    private static long lists(long keys, long pushes, int keyLength, int valueSize) {
        long perEntry = jemalloc(valueSize + PER_LIST_ENTRY);
        return keys * (PER_KEY + PER_LIST + jemalloc(sds(keyLength))) + pushes * perEntry;
    }

    /** Each connection's client, and a pipeline of commands in its query buffer and replies in its output. */
    private static long connections(int connections, int pipeline, int keyLength, int valueSize) {
        long command = jemalloc(keyLength + valueSize + 64L);
        return connections * (PER_CONNECTION + 2L * pipeline * command);
    }

    /** An sds string of {@code length} bytes: header by length class and the terminating NUL. */
    static long sds(long length) {
        long header = length < 256 ? 3 : length < 65_536 ? 5 : 9;
        return length + header + 1;
    }

    /**
     * The jemalloc size class {@code bytes} is served from, which {@code used_memory} counts: 16-byte
     * steps up to 128, then four classes per doubling.
     */
    static long jemalloc(long bytes) {
        if (bytes <= 16) {
            return 16;
        }
        int k = 63 - Long.numberOfLeadingZeros(bytes - 1); // 2^k < bytes <= 2^(k+1)
        long step = Math.max(16, 1L << Math.max(0, k - 2));
        return (bytes + step - 1) / step * step;
    }

    private static String describe(long keys, long bytes, int valueSize) {
        return String.format(
                Locale.ROOT,
                "%,d keys of %,d-byte values, about %s with their connections",
                keys,
                valueSize,
                SafetyGuard.megabytes(bytes));
    }
}
