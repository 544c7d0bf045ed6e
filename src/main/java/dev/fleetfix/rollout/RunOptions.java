package dev.fleetfix.rollout;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * How to run a playbook.
 *
 * @param check check mode: every read, no write
 * @param diff report file diffs
 * @param forks how many hosts of a batch run at once
 * @param window a change window that overrides the plays' own ({@code --window})
 * @param redisTimeout connect/command timeout for Redis calls of the steps
 */
public record RunOptions(boolean check, boolean diff, int forks, Optional<ChangeWindow> window, Duration redisTimeout) {
    public static final int DEFAULT_FORKS = 10;

    public RunOptions {
        if (forks < 1) {
            throw new IllegalArgumentException("forks: must be >= 1, was " + forks);
        }
        Objects.requireNonNull(window, "window");
        Objects.requireNonNull(redisTimeout, "redisTimeout");
    }

    public static RunOptions defaults() {
        return new RunOptions(false, false, DEFAULT_FORKS, Optional.empty(), Duration.ofSeconds(5));
    }

    public RunOptions withCheck(boolean value) {
        return new RunOptions(value, diff, forks, window, redisTimeout);
    }

    public RunOptions withWindow(Optional<ChangeWindow> value) {
        return new RunOptions(check, diff, forks, value, redisTimeout);
    }

    public RunOptions withForks(int value) {
        return new RunOptions(check, diff, value, window, redisTimeout);
    }
}
