package dev.fleetfix.rollout.event;

import dev.fleetfix.health.Wait;
import java.time.Instant;
import java.util.Objects;

/**
 * The engine waits noticeably long on a host ({@link Wait#NOTICEABLE}): what for, at most how long,
 * and what it saw last. Nothing waits that long without this event, in apply and check mode alike.
 *
 * @param step the step that waits, as named in the play
 */
public record Waiting(Instant at, String play, String host, String step, Wait pending) implements RunEvent {
    public Waiting {
        Objects.requireNonNull(pending, "pending");
    }
}
