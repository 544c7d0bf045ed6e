package dev.fleetfix.bench;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Redis's own counters of what its last fork cost, read from INFO (no extra load) at the end of a
 * benchmark: next to the synthetic figures they are the physical signal of THP. On a kernel before
 * 5.8 the copy-on-write bytes per fork are where huge pages hurt; {@code latest_fork_usec} is the
 * fork's own stall.
 *
 * @param counters by INFO field name: {@code latest_fork_usec}, {@code rdb_last_cow_size} and
 *     {@code aof_last_cow_size} (Redis 6.0+), {@code mem_fragmentation_ratio}; a field Redis does
 *     not report is absent
 */
public record RedisEvidence(Map<String, String> counters) {
    static final String[][] FIELDS = {
        {"stats", "latest_fork_usec"},
        {"persistence", "rdb_last_cow_size"},
        {"persistence", "aof_last_cow_size"},
        {"memory", "mem_fragmentation_ratio"}
    };

    public RedisEvidence {
        counters = Map.copyOf(counters);
    }

    /** Reads the counters; a section Redis refuses leaves its fields out rather than failing the benchmark. */
    public static RedisEvidence read(BenchTarget target) {
        Map<String, String> counters = new LinkedHashMap<>();
        Map<String, Map<String, String>> sections = new LinkedHashMap<>();
        for (String[] f : FIELDS) {
            Map<String, String> section = sections.computeIfAbsent(f[0], s -> {
                try {
                    return target.info(s);
                } catch (RuntimeException e) {
                    return Map.of();
                }
            });
            String value = section.get(f[1]);
            if (value != null && !value.isBlank()) {
                counters.put(f[1], value.strip());
            }
        }
        return new RedisEvidence(counters);
    }
}
