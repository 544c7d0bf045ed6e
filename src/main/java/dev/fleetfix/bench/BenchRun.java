package dev.fleetfix.bench;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * One round of a named benchmark on one host: what a {@code benchmark} step records. Several
 * rounds of the same name, host and phase are compared as a group.
 *
 * @param host inventory name of the host
 * @param name the benchmark's name in the playbook (before and after runs share it)
 * @param phase before or after the remediation
 * @param results one result per test of the round
 * @param evidence Redis's fork counters read after the step's last round; empty on the other
 *     rounds and when not read
 */
public record BenchRun(
        String host, String name, Phase phase, List<BenchResult> results, Optional<RedisEvidence> evidence) {

    public BenchRun(String host, String name, Phase phase, List<BenchResult> results) {
        this(host, name, phase, results, Optional.empty());
    }

    public BenchRun {
        Objects.requireNonNull(evidence, "evidence");
        Objects.requireNonNull(host, "host");
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(phase, "phase");
        if (name.isBlank()) {
            throw new IllegalArgumentException("benchmark name must not be blank");
        }
        results = List.copyOf(results);
    }

    public BenchRun withEvidence(RedisEvidence e) {
        return new BenchRun(host, name, phase, results, Optional.of(e));
    }
}
