package dev.fleetfix.bench.plan;

import dev.fleetfix.redis.load.BenchTarget;
import dev.fleetfix.redis.load.BenchmarkRefusedException;
import dev.fleetfix.redis.load.EarlierRuns;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Decides whether a benchmark may write to a Redis. Benchmark keys take memory; on a primary that
 * is nearly full, or whose policy evicts any key ({@code allkeys-*}), they would push out the
 * user's own keys. Under every policy, a limit the benchmark's own {@link Footprint} could reach
 * is refused even with {@code --force}: {@code volatile-*} then evicts the users' keys that carry a
 * TTL, and {@code noeviction} fails the users' own writes with OOM. A replica is refused always:
 * its writes are refused or lost at the next sync.
 */
public final class SafetyGuard {
    private SafetyGuard() {}

    /** How many existing keys under the prefix are counted before the count says "at least". */
    static final long COUNT_AT_MOST = 1000;

    /**
     * The room below {@code maxmemory} must be this many times the benchmark's estimated footprint:
     * the users' own writes go on during the run, and the estimate is of one allocator.
     */
    static final double HEADROOM_MARGIN = 1.5;

    /**
     * Throws {@link BenchmarkRefusedException} unless the benchmark may run, writing up to {@code
     * footprint} under {@code prefix}.
     */
    public static void check(BenchTarget target, SafetyPolicy policy, String prefix, Footprint footprint) {
        check(target, policy, footprint);
        if (policy.force()) {
            return;
        }
        BenchTarget.KeyCount existing = target.countByPrefix(prefix, COUNT_AT_MOST);
        if (existing.found() > 0) {
            String many = existing.found() >= COUNT_AT_MOST || !existing.complete()
                    ? "at least " + existing.found() + " keys"
                    : existing.found() == 1 ? "1 key" : existing.found() + " keys";
            throw new BenchmarkRefusedException(
                    target.hostName(),
                    List.of(many + " already exist under the prefix '" + prefix + "'"
                            + EarlierRuns.notCleaned(target, prefix, COUNT_AT_MOST)
                            + "; they are not the benchmark's: choose a prefix of its own (--prefix, or prefix: in a"
                            + " playbook)"),
                    true);
        }
        if (!existing.complete()) {
            throw new BenchmarkRefusedException(
                    target.hostName(),
                    List.of("cannot tell whether keys exist under the prefix '" + prefix + "': the keyspace is too"
                            + " large to scan before a benchmark"),
                    true);
        }
    }

    /**
     * The replica and memory checks only; {@link #check(BenchTarget, SafetyPolicy, String, Footprint)} adds the
     * prefix.
     */
    public static void check(BenchTarget target, SafetyPolicy policy, Footprint footprint) {
        Map<String, String> replication = target.info("replication");
        String role = replication.get("role");
        if (role == null) {
            throw new BenchmarkRefusedException(
                    target.hostName(),
                    List.of("its role could not be read (no role in INFO replication): it may be a replica"),
                    true);
        }
        if (!role.equals("master")) {
            throw new BenchmarkRefusedException(
                    target.hostName(),
                    List.of("it is a " + role + " (read-only replica); a benchmark writes, run it on the primary"),
                    false);
        }
        Map<String, String> memory = memory(target);
        List<String> noRoom = noRoom(memory, footprint);
        if (!noRoom.isEmpty()) {
            throw new BenchmarkRefusedException(target.hostName(), noRoom, false);
        }
        List<String> reasons = risks(memory, policy);
        if (!reasons.isEmpty() && !policy.force()) {
            throw new BenchmarkRefusedException(target.hostName(), reasons, true);
        }
    }

    /**
     * INFO memory, with {@code maxmemory} and its policy from CONFIG GET where INFO lacks them
     * (before Redis 3.2). When neither says, the limit is unknown: {@code maxmemory} is then
     * {@code "?"}, which {@link #risks} names, rather than read as no limit.
     */
    static Map<String, String> memory(BenchTarget target) {
        Map<String, String> memory = new HashMap<>(target.info("memory"));
        if (!memory.containsKey("maxmemory")) {
            memory.put("maxmemory", target.configGet("maxmemory").orElse(UNKNOWN));
        }
        if (!memory.containsKey("maxmemory_policy")) {
            target.configGet("maxmemory-policy").ifPresent(p -> memory.put("maxmemory_policy", p));
        }
        return memory;
    }

    private static final String UNKNOWN = "?";

    /** What makes writing to this primary risky; empty when nothing does. */
    static List<String> risks(Map<String, String> memory, SafetyPolicy policy) {
        List<String> reasons = new ArrayList<>();
        if (UNKNOWN.equals(memory.get("maxmemory"))) {
            reasons.add("maxmemory could not be read (not in INFO memory, CONFIG GET refused): whether benchmark"
                    + " keys would evict user keys is unknown");
            return reasons;
        }
        long max = number(memory.get("maxmemory"));
        long used = number(memory.get("used_memory"));
        String evictionPolicy =
                memory.getOrDefault("maxmemory_policy", "noeviction").toLowerCase(Locale.ROOT);
        if (max > 0) {
            double fill = (double) used / max;
            if (fill > policy.maxMemoryFill()) {
                reasons.add(String.format(
                        Locale.ROOT,
                        "used_memory is %.0f %% of maxmemory (%d of %d bytes), above %.0f %%",
                        fill * 100,
                        used,
                        max,
                        policy.maxMemoryFill() * 100));
            }
            if (evictionPolicy.startsWith("allkeys-")) {
                reasons.add("maxmemory-policy " + evictionPolicy
                        + " would evict user keys to make room for benchmark keys");
            }
        }
        return reasons;
    }

    /**
     * Why the benchmark's own keys cannot fit below {@code maxmemory} (with {@link #HEADROOM_MARGIN});
     * empty without a limit, or when they fit. No {@code --force} overrides this: the run itself would
     * evict or fail the users' writes.
     */
    static List<String> noRoom(Map<String, String> memory, Footprint footprint) {
        if (UNKNOWN.equals(memory.get("maxmemory"))) {
            return List.of();
        }
        long max = number(memory.get("maxmemory"));
        if (max <= 0) {
            return List.of();
        }
        long used = number(memory.get("used_memory"));
        long left = Math.max(0, max - used);
        String policy = memory.getOrDefault("maxmemory_policy", "noeviction").toLowerCase(Locale.ROOT);
        String room = megabytes(left) + " are left below maxmemory (used_memory " + megabytes(used) + " of "
                + megabytes(max) + ")";
        if (!footprint.bounded()) {
            return List.of("LPUSH from the builtin engine grows its lists for as long as the load runs, so what it"
                    + " needs cannot be held against the room left: " + room + "; " + atTheLimit(policy)
                    + "; leave lpush out, or use --engine redis-benchmark, whose -n bounds it");
        }
        long needed = (long) Math.ceil(footprint.bytes() * HEADROOM_MARGIN);
        if (needed <= left) {
            return List.of();
        }
        return List.of(String.format(
                Locale.ROOT,
                "the benchmark needs about %s (%s, and a margin of %.1fx), and only %s; %s; use a smaller keyspace"
                        + " (-r, keyspace:) or value size (-d, value_size:), or a host with room",
                megabytes(needed),
                footprint.what(),
                HEADROOM_MARGIN,
                room,
                atTheLimit(policy)));
    }

    /** What Redis does to the users when the benchmark's keys take it to {@code maxmemory}. */
    static String atTheLimit(String policy) {
        String oom = "Redis refuses writes with OOM, the users' own writes too";
        if (policy.equals("noeviction")) {
            return "at maxmemory, under maxmemory-policy noeviction, " + oom;
        }
        if (policy.startsWith("volatile-")) {
            String order =
                    switch (policy) {
                        case "volatile-lru" -> ", least recently used first";
                        case "volatile-lfu" -> ", least frequently used first";
                        case "volatile-ttl" -> ", those nearest to expiry first";
                        case "volatile-random" -> ", at random";
                        default -> "";
                    };
            return "maxmemory-policy " + policy + " evicts the users' keys that carry a TTL to make room" + order
                    + ", and once none is left " + oom;
        }
        if (policy.startsWith("allkeys-")) {
            return "maxmemory-policy " + policy + " evicts any of the users' keys to make room";
        }
        return "maxmemory-policy " + policy + " is not one fleetfix knows; at maxmemory it evicts or refuses writes";
    }

    /** "12.5 MiB". */
    static String megabytes(long bytes) {
        return String.format(Locale.ROOT, "%.1f MiB", bytes / (1024.0 * 1024.0));
    }

    private static long number(String value) {
        if (value == null || value.isBlank()) {
            return 0;
        }
        try {
            return Long.parseLong(value.strip());
        } catch (NumberFormatException e) {
            return 0;
        }
    }
}
