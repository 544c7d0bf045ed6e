package dev.fleetfix.rollout.event;

import java.time.Instant;
import java.util.List;

/**
 * The rollout stopped: a batch exceeded max_fail_percentage or the circuit breaker opened. No new
 * host is started.
 */
public record PlayHalted(
        Instant at, String play, String reason, List<String> done, List<String> failed, List<String> untouched)
        implements RunEvent {
    public PlayHalted {
        done = List.copyOf(done);
        failed = List.copyOf(failed);
        untouched = List.copyOf(untouched);
    }
}
