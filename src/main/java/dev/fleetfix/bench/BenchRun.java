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
 * @param point the sweep point this round measured; empty outside a sweep. A sweep's rounds are
 *     compared point against point, never before against after
 */
public record BenchRun(
        String host,
        String name,
        Phase phase,
        List<BenchResult> results,
        Optional<RedisEvidence> evidence,
        Optional<SweepPoint> point) {

    public BenchRun(String host, String name, Phase phase, List<BenchResult> results) {
        this(host, name, phase, results, Optional.empty(), Optional.empty());
    }

    public BenchRun(
            String host, String name, Phase phase, List<BenchResult> results, Optional<RedisEvidence> evidence) {
        this(host, name, phase, results, evidence, Optional.empty());
    }

    public BenchRun {
        Objects.requireNonNull(evidence, "evidence");
        Objects.requireNonNull(point, "point");
        Objects.requireNonNull(host, "host");
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(phase, "phase");
        if (name.isBlank()) {
            throw new IllegalArgumentException("benchmark name must not be blank");
        }
        results = List.copyOf(results);
    }

    public BenchRun withEvidence(RedisEvidence e) {
        return new BenchRun(host, name, phase, results, Optional.of(e), point);
    }

    /** This round as a measurement of one sweep point. */
    public BenchRun at(SweepPoint p) {
        return new BenchRun(host, name, phase, results, evidence, Optional.of(p));
    }
}
