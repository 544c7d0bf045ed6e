package dev.fleetfix.report.model;

import java.util.List;
import java.util.Objects;

/**
 * One round of a named benchmark on one host.
 *
 * @param name the benchmark's name (before and after rounds share it)
 * @param phase {@code before}, {@code after}, {@code calibration}, {@code control_before} or {@code
 *     control_after}
 * @param step the playbook step that ran it
 * @param tests one result per test (SET, GET, fork-under-load...)
 * @param redisEvidence Redis's own fork counters (INFO {@code latest_fork_usec}, {@code
 *     rdb_last_cow_size}, {@code aof_last_cow_size}, {@code mem_fragmentation_ratio}, and CONFIG
 *     GET's {@code latency_monitor_threshold}) read after the step's last round; null on the other
 *     rounds. The before step's reading is the Redis about to be restarted, the after step's the
 *     restarted one
 * @param redisAnonHugePagesKb {@code AnonHugePages} of the Redis process (smaps_rollup, or smaps on
 *     kernels before 4.14), kB, read with {@code redis_evidence}; null when not read ({@code
 *     redis_unread} says why)
 * @param redisLatencyLatest LATENCY LATEST, read with {@code redis_evidence} when the latency
 *     monitor is on; empty otherwise
 * @param redisForkHistory LATENCY HISTORY fork, oldest first, likewise
 * @param redisUnread one sentence per figure of the reading that could not be read, saying why
 * @param controlFor on a control round (phase {@code control_before} or {@code control_after}: an
 *     unchanged host of a later batch measured right after a changed host's side), that changed
 *     host; null otherwise
 * @param point the sweep point this round measured; null outside a sweep
 */
public record BenchmarkRunReport(
        String host,
        String name,
        String phase,
        String step,
        List<TestResultReport> tests,
        java.util.Map<String, String> redisEvidence,
        Long redisAnonHugePagesKb,
        List<LatencyEventReport> redisLatencyLatest,
        List<LatencySpikeReport> redisForkHistory,
        List<String> redisUnread,
        String controlFor,
        SweepPointReport point) {
    public BenchmarkRunReport {
        Objects.requireNonNull(host, "host");
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(phase, "phase");
        tests = List.copyOf(tests);
        redisLatencyLatest = redisLatencyLatest == null ? List.of() : List.copyOf(redisLatencyLatest);
        redisForkHistory = redisForkHistory == null ? List.of() : List.copyOf(redisForkHistory);
        redisUnread = redisUnread == null ? List.of() : List.copyOf(redisUnread);
    }
}
