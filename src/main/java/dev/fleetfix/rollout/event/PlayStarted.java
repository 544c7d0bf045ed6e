package dev.fleetfix.rollout.event;

import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * A play began.
 *
 * @param play the play's name
 * @param batches its hosts, batch by batch
 * @param maxFailPercentage the play's max_fail_percentage
 * @param window its change window as written, if any
 * @param notes how the hosts were ordered into batches (replicas first, a Sentinel's primary last), when the
 *     order came from Redis; {@code --list-hosts} reads no Redis, so a check run is where an operator sees them
 */
public record PlayStarted(
        Instant at,
        String play,
        List<List<String>> batches,
        int maxFailPercentage,
        Optional<String> window,
        List<String> notes)
        implements RunEvent {
    public PlayStarted {
        batches = batches.stream().map(List::copyOf).toList();
        notes = List.copyOf(notes);
    }
}
