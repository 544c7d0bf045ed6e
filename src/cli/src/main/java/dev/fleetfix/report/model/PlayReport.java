package dev.fleetfix.report.model;

import java.util.List;
import java.util.Objects;

/**
 * One play.
 *
 * @param batches its hosts, batch by batch, as planned
 * @param window its change window as written; null when none
 * @param halted why the rollout halted in this play (max_fail_percentage, circuit breaker); null
 *     when it did not
 * @param windowClosed when the change window closed during (or before) the play: the window and
 *     the local time it was seen closed; null otherwise
 */
public record PlayReport(
        String name,
        List<List<String>> batches,
        int maxFailPercentage,
        String window,
        String halted,
        String windowClosed) {
    public PlayReport {
        Objects.requireNonNull(name, "name");
        batches = batches.stream().map(List::copyOf).toList();
    }
}
