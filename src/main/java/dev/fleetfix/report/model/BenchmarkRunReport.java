package dev.fleetfix.report.model;

import java.util.List;
import java.util.Objects;

/**
 * One round of a named benchmark on one host.
 *
 * @param name the benchmark's name (before and after rounds share it)
 * @param phase {@code before} or {@code after}
 * @param step the playbook step that ran it
 * @param tests one result per test (SET, GET, fork-under-load...)
 * @param redisEvidence Redis's own fork counters (INFO {@code latest_fork_usec}, {@code
 *     rdb_last_cow_size}, {@code aof_last_cow_size}, {@code mem_fragmentation_ratio}) read after the
 *     step's last round; null on the other rounds
 * @param point the sweep point this round measured; null outside a sweep
 */
public record BenchmarkRunReport(
        String host,
        String name,
        String phase,
        String step,
        List<TestResultReport> tests,
        java.util.Map<String, String> redisEvidence,
        SweepPointReport point) {
    public BenchmarkRunReport {
        Objects.requireNonNull(host, "host");
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(phase, "phase");
        tests = List.copyOf(tests);
    }
}
