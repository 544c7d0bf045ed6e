package dev.fleetfix.redis.load;

import dev.fleetfix.redis.RedisException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * What Redis itself says its forks and memory cost, read at no extra load (INFO, CONFIG GET,
 * LATENCY and the process's smaps) at the end of a benchmark step: the before step's reading is the
 * Redis that is about to be restarted, the after step's the restarted one. Next to the synthetic
 * figures they are the physical signal of THP: on a kernel before 5.8 the copy-on-write bytes per
 * fork are where huge pages hurt, {@code latest_fork_usec} is the fork's own stall, and {@code
 * AnonHugePages} says whether the process holds huge pages at all.
 *
 * @param counters by INFO field name: {@code latest_fork_usec}, {@code rdb_last_cow_size} and
 *     {@code aof_last_cow_size} (Redis 6.0+), {@code mem_fragmentation_ratio}; and {@code
 *     latency_monitor_threshold} from CONFIG GET; a field Redis does not report is absent
 * @param anonHugePagesKb {@code AnonHugePages} of the Redis process, summed over its smaps; empty
 *     when it could not be read ({@code unread} says why)
 * @param latencyLatest LATENCY LATEST, when the latency monitor is on
 * @param forkHistory LATENCY HISTORY fork, oldest first, when the latency monitor is on
 * @param unread for each figure that could not be read, why (one sentence naming the figure)
 */
public record RedisEvidence(
        Map<String, String> counters,
        OptionalLong anonHugePagesKb,
        List<LatencyEvent> latencyLatest,
        List<LatencySpike> forkHistory,
        List<String> unread) {
    static final String[][] FIELDS = {
        {"stats", "latest_fork_usec"},
        {"persistence", "rdb_last_cow_size"},
        {"persistence", "aof_last_cow_size"},
        {"memory", "mem_fragmentation_ratio"}
    };
    public static final String LATENCY_THRESHOLD = "latency_monitor_threshold";

    /**
     * One event of LATENCY LATEST.
     *
     * @param at when the latest spike happened, Unix seconds
     */
    public record LatencyEvent(String event, long at, long latestMs, long maxMs) {
        public LatencyEvent {
            Objects.requireNonNull(event, "event");
        }
    }

    /**
     * One spike of LATENCY HISTORY.
     *
     * @param at Unix seconds
     */
    public record LatencySpike(long at, long ms) {}

    public RedisEvidence(Map<String, String> counters) {
        this(counters, OptionalLong.empty(), List.of(), List.of(), List.of());
    }

    public RedisEvidence {
        counters = Map.copyOf(counters);
        Objects.requireNonNull(anonHugePagesKb, "anonHugePagesKb");
        latencyLatest = List.copyOf(latencyLatest);
        forkHistory = List.copyOf(forkHistory);
        unread = List.copyOf(unread);
    }

    /**
     * Reads the counters; a section Redis refuses leaves its fields out rather than failing the
     * benchmark, and so does every other figure, with the reason in {@code unread}.
     *
     * @param hugePages reads the process's AnonHugePages given its pid
     */
    public static RedisEvidence read(BenchTarget target, ProcessHugePages hugePages) {
        Map<String, String> counters = new LinkedHashMap<>();
        List<String> unread = new ArrayList<>();
        Map<String, Map<String, String>> sections = new LinkedHashMap<>();
        for (String section : List.of("server", "stats", "persistence", "memory")) {
            try {
                sections.put(section, target.info(section));
            } catch (RedisException e) {
                sections.put(section, Map.of());
                unread.add("INFO " + section + ": " + e.getMessage());
            }
        }
        for (String[] f : FIELDS) {
            String value = sections.get(f[0]).get(f[1]);
            if (value != null && !value.isBlank()) {
                counters.put(f[1], value.strip());
            }
        }
        List<LatencyEvent> latest = List.of();
        List<LatencySpike> forks = List.of();
        Optional<String> threshold = configGet(target, "latency-monitor-threshold");
        if (threshold.isEmpty()) {
            unread.add("LATENCY: CONFIG GET latency-monitor-threshold was refused, so whether the latency"
                    + " monitor is on is unknown; LATENCY was not asked");
        } else {
            counters.put(LATENCY_THRESHOLD, threshold.get());
            if (threshold.get().equals("0")) {
                unread.add("LATENCY: the latency monitor is off (latency-monitor-threshold 0): Redis recorded no"
                        + " fork latency; set it (e.g. 10 ms) to have LATENCY HISTORY fork");
            } else {
                try {
                    latest = target.latencyLatest();
                    forks = target.latencyHistory("fork");
                } catch (RedisException e) {
                    unread.add("LATENCY: " + e.getMessage());
                }
            }
        }
        OptionalLong kb = OptionalLong.empty();
        String pid = sections.get("server").get("process_id");
        if (pid == null || !pid.strip().matches("\\d+")) {
            unread.add("AnonHugePages: INFO server gave no process_id, so whose smaps to read is unknown");
        } else {
            ProcessHugePages.Reading r = hugePages.read(Long.parseLong(pid.strip()));
            kb = r.kb();
            r.why().ifPresent(w -> unread.add("AnonHugePages: " + w));
        }
        return new RedisEvidence(counters, kb, latest, forks, unread);
    }

    private static Optional<String> configGet(BenchTarget target, String parameter) {
        try {
            return target.configGet(parameter).map(String::strip);
        } catch (RedisException e) {
            return Optional.empty();
        }
    }
}
