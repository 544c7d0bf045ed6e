package dev.fleetfix.bench;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Decides whether a benchmark may write to a Redis. Benchmark keys take memory; on a primary that
 * is nearly full, or whose policy evicts any key ({@code allkeys-*}), they would push out the
 * user's own keys. A replica is refused always: its writes are refused or lost at the next sync.
 */
public final class SafetyGuard {
    private SafetyGuard() {}

    /** How many existing keys under the prefix are counted before the count says "at least". */
    static final long COUNT_AT_MOST = 1000;

    /**
     * Throws {@link BenchmarkRefusedException} unless the benchmark may run, writing under {@code
     * prefix}.
     */
    public static void check(BenchTarget target, SafetyPolicy policy, String prefix) {
        check(target, policy);
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

    /** The replica and memory checks only; {@link #check(BenchTarget, SafetyPolicy, String)} adds the prefix. */
    public static void check(BenchTarget target, SafetyPolicy policy) {
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
        List<String> reasons = risks(memory(target), policy);
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
