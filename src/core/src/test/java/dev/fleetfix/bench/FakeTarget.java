package dev.fleetfix.bench;

import dev.fleetfix.redis.load.BenchConnection;
import dev.fleetfix.redis.load.BenchOp;
import dev.fleetfix.redis.load.BenchTarget;
import dev.fleetfix.redis.load.Operation;
import dev.fleetfix.redis.load.RedisEvidence;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.IntToLongFunction;

/** A Redis that keeps keys in a set and spends time on a fake clock. */
public final class FakeTarget implements BenchTarget {
    public final AtomicLong clock;
    public final IntToLongFunction serviceNanos;
    public final AtomicInteger calls = new AtomicInteger();
    public final Set<String> keys = ConcurrentHashMap.newKeySet();
    public final List<BenchOp> ops = Collections.synchronizedList(new ArrayList<>());
    public final Map<String, Map<String, String>> info = new HashMap<>();
    public final Map<String, String> config = new HashMap<>();
    public final AtomicInteger bgsaves = new AtomicInteger();
    /** Per deleteByPrefix call: "ops sent before it:keys it deleted". */
    public final List<String> deletes = Collections.synchronizedList(new ArrayList<>());

    /** The TCP_NODELAY asked of each connection opened with one, in order. */
    public final List<Boolean> tcpNoDelays = Collections.synchronizedList(new ArrayList<>());

    public final List<RedisEvidence.LatencyEvent> latencyLatest = new ArrayList<>();
    public final List<RedisEvidence.LatencySpike> forkHistory = new ArrayList<>();

    public int errorsPerBatch;
    public boolean closed;

    /** From this pipeline on (counted from 0), each one makes Redis evict a key; -1: never. */
    public volatile int evictFromCall = -1;

    public final AtomicLong evictedKeys = new AtomicLong();

    /** @param serviceNanos how long the n-th pipeline (from 0) takes */
    public FakeTarget(AtomicLong clock, IntToLongFunction serviceNanos) {
        this.clock = clock;
        this.serviceNanos = serviceNanos;
        info.put("replication", Map.of("role", "master"));
        info.put("memory", Map.of("used_memory", "1000000", "maxmemory", "0", "maxmemory_policy", "noeviction"));
        info.put(
                "persistence",
                Map.of(
                        "loading",
                        "0",
                        "rdb_bgsave_in_progress",
                        "0",
                        "aof_rewrite_in_progress",
                        "0",
                        "rdb_last_bgsave_status",
                        "ok"));
        info.put("stats", Map.of("latest_fork_usec", "1234"));
        config.put("dir", "/var/lib/redis");
    }

    @Override
    public List<RedisEvidence.LatencyEvent> latencyLatest() {
        return List.copyOf(latencyLatest);
    }

    @Override
    public List<RedisEvidence.LatencySpike> latencyHistory(String event) {
        return event.equals("fork") ? List.copyOf(forkHistory) : List.of();
    }

    @Override
    public String hostName() {
        return "redis-1";
    }

    @Override
    public BenchConnection connect() {
        return new BenchConnection() {
            @Override
            public int execute(List<BenchOp> batch) {
                int call = calls.getAndIncrement();
                clock.addAndGet(serviceNanos.applyAsLong(call));
                if (evictFromCall >= 0 && call >= evictFromCall) {
                    evictedKeys.incrementAndGet();
                }
                ops.addAll(batch);
                for (BenchOp op : batch) {
                    if (op.command() != Operation.GET) {
                        keys.add(op.key());
                    }
                }
                return errorsPerBatch;
            }

            @Override
            public void close() {}
        };
    }

    @Override
    public BenchConnection connect(boolean tcpNoDelay) {
        tcpNoDelays.add(tcpNoDelay);
        return connect();
    }

    @Override
    public Map<String, String> info(String section) {
        if (section.equals("stats") && info.containsKey("stats")) {
            Map<String, String> stats = new HashMap<>(info.get("stats"));
            stats.putIfAbsent("evicted_keys", Long.toString(evictedKeys.get()));
            return stats;
        }
        return info.getOrDefault(section, Map.of());
    }

    @Override
    public Optional<String> configGet(String parameter) {
        return Optional.ofNullable(config.get(parameter));
    }

    @Override
    public void bgsave() {
        bgsaves.incrementAndGet();
    }

    @Override
    public Optional<String> clusterHashTag() {
        return Optional.empty();
    }

    @Override
    public KeyCount countByPrefix(String prefix, long atMost) {
        long found =
                keys.stream().filter(k -> k.startsWith(prefix)).limit(atMost).count();
        return new KeyCount(found, true);
    }

    @Override
    public KeyCount countEarlierRuns(String prefix, long atMost) {
        long found = keys.stream()
                .filter(k -> k.startsWith(prefix) && isEarlierRun(k.substring(prefix.length())))
                .limit(atMost)
                .count();
        return new KeyCount(found, true);
    }

    private static boolean isEarlierRun(String afterPrefix) {
        return afterPrefix.matches("r[0-9a-f]{8}:.*");
    }

    @Override
    public long deleteByPrefix(String prefix) {
        long before = keys.size();
        keys.removeIf(k -> k.startsWith(prefix));
        deletes.add(ops.size() + ":" + (before - keys.size()));
        return before - keys.size();
    }

    @Override
    public long deleteEarlierRuns(String prefix) {
        long before = keys.size();
        keys.removeIf(k -> k.startsWith(prefix) && isEarlierRun(k.substring(prefix.length())));
        return before - keys.size();
    }

    @Override
    public void close() {
        closed = true;
    }
}
