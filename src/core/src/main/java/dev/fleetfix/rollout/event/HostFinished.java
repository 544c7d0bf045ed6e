package dev.fleetfix.rollout.event;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;

/**
 * A host ended a play.
 *
 * @param outcome done, failed or unreachable
 * @param reason why it failed; empty when done
 * @param facts the host's facts at the end of the play
 */
public record HostFinished(
        Instant at,
        String play,
        String host,
        HostOutcome outcome,
        String reason,
        Duration elapsed,
        Map<String, String> facts)
        implements RunEvent {
    public HostFinished {
        facts = Map.copyOf(facts);
    }
}
