package dev.fleetfix.bench.load;

import java.time.Duration;
import java.util.Objects;

/**
 * One BGSAVE triggered during a fork-under-load run.
 *
 * @param at when it was triggered, from the start of the run
 * @param forkMicros how long the fork itself stalled Redis ({@code latest_fork_usec})
 */
public record ForkSample(Duration at, long forkMicros) {
    public ForkSample {
        Objects.requireNonNull(at, "at");
    }
}
