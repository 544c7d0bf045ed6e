package dev.fleetfix.rollout.event;

import dev.fleetfix.bench.plan.BenchRun;
import java.time.Instant;
import java.util.Objects;

/**
 * A benchmark step measured one round on a host: its name, phase (before/after), and per test the
 * throughput, percentiles and latency distribution. Reporters compare before and after rounds of
 * the same name.
 *
 * @param index the step's 1-based index within the play
 * @param step the step's name
 */
public record BenchmarkFinished(Instant at, String play, String host, int index, String step, BenchRun run)
        implements RunEvent {
    public BenchmarkFinished {
        Objects.requireNonNull(run, "run");
        // a control round is measured on another host, for this one
        if (!run.host().equals(host) && !run.controlFor().filter(host::equals).isPresent()) {
            throw new IllegalArgumentException("run.host must be " + host + " (or a control of it), was " + run.host());
        }
    }
}
