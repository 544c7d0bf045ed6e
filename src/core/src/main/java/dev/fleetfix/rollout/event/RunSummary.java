package dev.fleetfix.rollout.event;

import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * The end of a run.
 *
 * @param outcome how it ended
 * @param reason one line on why it halted or was refused; empty when OK
 * @param done hosts that completed every play they were in
 * @param failed hosts where a step failed or that could not be reached
 * @param untouched hosts the run never started
 * @param changesPending in check mode: whether any step would change something
 * @param changed hosts where something changed (in check mode: would change)
 * @param elapsed the run's duration
 */
public record RunSummary(
        RunOutcome outcome,
        String reason,
        List<String> done,
        List<String> failed,
        List<String> untouched,
        boolean changesPending,
        List<String> changed,
        Duration elapsed) {

    public RunSummary {
        Objects.requireNonNull(outcome, "outcome");
        Objects.requireNonNull(reason, "reason");
        done = List.copyOf(done);
        failed = List.copyOf(failed);
        untouched = List.copyOf(untouched);
        changed = List.copyOf(changed);
        Objects.requireNonNull(elapsed, "elapsed");
    }
}
