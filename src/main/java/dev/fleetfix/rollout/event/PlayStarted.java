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
 */
public record PlayStarted(
        Instant at, String play, List<List<String>> batches, int maxFailPercentage, Optional<String> window)
        implements RunEvent {
    public PlayStarted {
        batches = batches.stream().map(List::copyOf).toList();
    }
}
