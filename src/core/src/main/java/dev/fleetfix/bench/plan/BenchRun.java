package dev.fleetfix.bench.plan;

import dev.fleetfix.bench.BenchResult;
import dev.fleetfix.bench.Phase;
import dev.fleetfix.redis.load.RedisEvidence;
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
 * @param controlFor on a control round ({@link Phase#CONTROL_BEFORE}, {@link Phase#CONTROL_AFTER}),
 *     the changed host it is the control of; empty otherwise
 */
public record BenchRun(
        String host,
        String name,
        Phase phase,
        List<BenchResult> results,
        Optional<RedisEvidence> evidence,
        Optional<SweepPoint> point,
        Optional<String> controlFor) {

    public BenchRun(String host, String name, Phase phase, List<BenchResult> results) {
        this(host, name, phase, results, Optional.empty(), Optional.empty(), Optional.empty());
    }

    public BenchRun(
            String host, String name, Phase phase, List<BenchResult> results, Optional<RedisEvidence> evidence) {
        this(host, name, phase, results, evidence, Optional.empty(), Optional.empty());
    }

    public BenchRun {
        Objects.requireNonNull(evidence, "evidence");
        Objects.requireNonNull(point, "point");
        Objects.requireNonNull(controlFor, "controlFor");
        if (controlFor.isPresent() != (phase == Phase.CONTROL_BEFORE || phase == Phase.CONTROL_AFTER)) {
            throw new IllegalArgumentException(
                    "a control round names the host it controls, and only a control round does: " + phase + " "
                            + controlFor);
        }
        Objects.requireNonNull(host, "host");
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(phase, "phase");
        if (name.isBlank()) {
            throw new IllegalArgumentException("benchmark name must not be blank");
        }
        results = List.copyOf(results);
    }

    public BenchRun withEvidence(RedisEvidence e) {
        return new BenchRun(host, name, phase, results, Optional.of(e), point, controlFor);
    }

    /** This round as a measurement of one sweep point. */
    public BenchRun at(SweepPoint p) {
        return new BenchRun(host, name, phase, results, evidence, Optional.of(p), controlFor);
    }

    /** This round as a control of {@code changedHost}, at the moment of its before or after side. */
    public BenchRun asControlOf(String changedHost, Phase side) {
        Phase p = side == Phase.AFTER ? Phase.CONTROL_AFTER : Phase.CONTROL_BEFORE;
        return new BenchRun(host, name, p, results, evidence, point, Optional.of(changedHost));
    }
}
