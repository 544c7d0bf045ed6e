package dev.fleetfix.report;

import dev.fleetfix.report.model.BenchmarkRunReport;
import dev.fleetfix.report.model.ComparisonReport;
import dev.fleetfix.report.model.FleetReport;
import dev.fleetfix.report.model.LatencySpikeReport;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/** Redis's own figures beside a comparison, in the same words on the console recap and the HTML page. */
public final class RedisEvidence {
    private RedisEvidence() {}

    /**
     * Redis's own figures, before → after, from the last round of each side that read them: fork
     * cost, copy-on-write bytes, huge pages held, fragmentation, the latency monitor's forks; and
     * what could not be read, with why.
     */
    public static Optional<String> of(FleetReport report, ComparisonReport c) {
        BenchmarkRunReport before = null;
        BenchmarkRunReport after = null;
        for (BenchmarkRunReport r : report.benchmarks().runs()) {
            if (r.host().equals(c.host()) && r.name().equals(c.name()) && r.redisEvidence() != null) {
                if (r.phase().equals("before")) {
                    before = r;
                } else if (r.phase().equals("after")) {
                    after = r;
                }
            }
        }
        if (before == null || after == null) {
            return Optional.empty();
        }
        List<String> parts = new ArrayList<>();
        for (String field : List.of(
                "latest_fork_usec",
                "rdb_last_cow_size",
                "aof_last_cow_size",
                "mem_fragmentation_ratio",
                "latency_monitor_threshold")) {
            Map<String, String> b = before.redisEvidence();
            Map<String, String> a = after.redisEvidence();
            if (b.containsKey(field) || a.containsKey(field)) {
                parts.add(field + " " + b.getOrDefault(field, "-") + " → " + a.getOrDefault(field, "-"));
            }
        }
        if (before.redisAnonHugePagesKb() != null || after.redisAnonHugePagesKb() != null) {
            parts.add("AnonHugePages " + kb(before.redisAnonHugePagesKb()) + " → " + kb(after.redisAnonHugePagesKb()));
        }
        if (!before.redisForkHistory().isEmpty() || !after.redisForkHistory().isEmpty()) {
            parts.add("LATENCY fork " + forks(before) + " → " + forks(after));
        }
        // a reason both sides give (the latency monitor off) is said once
        List<String> b = before.redisUnread();
        List<String> a = after.redisUnread();
        Set<String> unread = new LinkedHashSet<>();
        b.forEach(u -> unread.add(a.contains(u) ? u : "before: " + u));
        a.stream().filter(u -> !b.contains(u)).forEach(u -> unread.add("after: " + u));
        if (!unread.isEmpty()) {
            parts.add("not read: " + String.join("; ", unread));
        }
        return parts.isEmpty() ? Optional.empty() : Optional.of(HostText.oneLine(String.join(", ", parts)));
    }

    private static String kb(Long kb) {
        return kb == null ? "-" : String.format(Locale.ROOT, "%,d kB", kb);
    }

    /** The fork spikes the latency monitor holds: how many, the largest and the latest. */
    static String forks(BenchmarkRunReport r) {
        if (r.redisForkHistory().isEmpty()) {
            return "none";
        }
        long max = r.redisForkHistory().stream()
                .mapToLong(LatencySpikeReport::ms)
                .max()
                .orElse(0);
        long latest = r.redisForkHistory().get(r.redisForkHistory().size() - 1).ms();
        return r.redisForkHistory().size() + " spikes (latest " + latest + " ms, max " + max + " ms)";
    }
}
