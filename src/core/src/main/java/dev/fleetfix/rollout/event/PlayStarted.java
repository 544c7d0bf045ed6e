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
 * @param leftOutByTags the names of the play's steps that {@code --tags} or {@code --skip-tags} leave out, in order
 * @param emptiedByTags tags left out every step: the play runs on no host
 */
public record PlayStarted(
        Instant at,
        String play,
        List<List<String>> batches,
        int maxFailPercentage,
        Optional<String> window,
        List<String> notes,
        List<String> leftOutByTags,
        boolean emptiedByTags)
        implements RunEvent {
    public PlayStarted {
        batches = batches.stream().map(List::copyOf).toList();
        notes = List.copyOf(notes);
        leftOutByTags = List.copyOf(leftOutByTags);
    }

    /** A play of which every step runs. */
    public PlayStarted(
            Instant at, String play, List<List<String>> batches, int maxFailPercentage, Optional<String> window) {
        this(at, play, batches, maxFailPercentage, window, List.of(), List.of(), false);
    }
}
