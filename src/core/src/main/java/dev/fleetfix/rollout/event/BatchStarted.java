package dev.fleetfix.rollout.event;

import java.time.Instant;
import java.util.List;

/** A batch began: {@code number} of {@code of} (1-based). */
public record BatchStarted(Instant at, String play, int number, int of, List<String> hosts) implements RunEvent {
    public BatchStarted {
        hosts = List.copyOf(hosts);
    }
}
