package dev.fleetfix.rollout;

import dev.fleetfix.playbook.TagSelection;
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
 * @param tags which steps run ({@code --tags}, {@code --skip-tags}); the planner leaves the others out
 */
public record RunOptions(
        boolean check,
        boolean diff,
        int forks,
        Optional<ChangeWindow> window,
        Duration redisTimeout,
        TagSelection tags) {
    public static final int DEFAULT_FORKS = 10;

    public RunOptions {
        if (forks < 1) {
            throw new IllegalArgumentException("forks: must be >= 1, was " + forks);
        }
        Objects.requireNonNull(window, "window");
        Objects.requireNonNull(redisTimeout, "redisTimeout");
        Objects.requireNonNull(tags, "tags");
    }

    /** Every step but those tagged {@code never}, as without {@code --tags}. */
    public RunOptions(boolean check, boolean diff, int forks, Optional<ChangeWindow> window, Duration redisTimeout) {
        this(check, diff, forks, window, redisTimeout, TagSelection.all());
    }

    public static RunOptions defaults() {
        return new RunOptions(false, false, DEFAULT_FORKS, Optional.empty(), Duration.ofSeconds(5));
    }

    public RunOptions withCheck(boolean value) {
        return new RunOptions(value, diff, forks, window, redisTimeout, tags);
    }

    public RunOptions withWindow(Optional<ChangeWindow> value) {
        return new RunOptions(check, diff, forks, value, redisTimeout, tags);
    }

    public RunOptions withForks(int value) {
        return new RunOptions(check, diff, value, window, redisTimeout, tags);
    }

    public RunOptions withTags(TagSelection value) {
        return new RunOptions(check, diff, forks, window, redisTimeout, value);
    }
}
