package dev.fleetfix.rollout.plan;

import dev.fleetfix.Forks;
import dev.fleetfix.playbook.TagSelection;
import io.soabase.recordbuilder.core.RecordBuilder;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
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
 * @param extraVars variables above every other, the plays' {@code vars} included ({@code -e})
 * @param startAtTask the name (or glob) of the step to start at; the steps before it are not run
 *     ({@code --start-at-task})
 * @param tags which steps run ({@code --tags}, {@code --skip-tags}); the planner leaves the others out
 * @param lockStaleAfter when a host lock counts as stale (reported, never taken over)
 * @param journalDir where the run journal goes ({@code --run-dir}, else {@code --report}); empty for the
 *     service's runs home, in a directory named by the run id
 */
// the withers (withCheck, withForks, ...) are generated, and validate as the constructor does
@RecordBuilder
public record RunOptions(
        boolean check,
        boolean diff,
        int forks,
        Optional<ChangeWindow> window,
        Duration redisTimeout,
        Map<String, Object> extraVars,
        Optional<String> startAtTask,
        TagSelection tags,
        Duration lockStaleAfter,
        Optional<Path> journalDir)
        implements RunOptionsBuilder.With {
    public static final Duration DEFAULT_LOCK_STALE_AFTER = Duration.ofHours(2);

    public RunOptions {
        Forks.checked(forks);
        Objects.requireNonNull(window, "window");
        Objects.requireNonNull(redisTimeout, "redisTimeout");
        extraVars = Collections.unmodifiableMap(new LinkedHashMap<>(extraVars));
        Objects.requireNonNull(startAtTask, "startAtTask");
        Objects.requireNonNull(tags, "tags");
        Objects.requireNonNull(lockStaleAfter, "lockStaleAfter");
        Objects.requireNonNull(journalDir, "journalDir");
    }

    /**
     * No check, diff or window; {@value Forks#DEFAULT_FORKS} forks, no extra vars, from the first step, every step but
     * those tagged {@code never}, locks stale after 2 hours, the journal in the runs home.
     */
    public static RunOptions defaults() {
        return new RunOptions(
                false,
                false,
                Forks.DEFAULT_FORKS,
                Optional.empty(),
                Duration.ofSeconds(5),
                Map.of(),
                Optional.empty(),
                TagSelection.all(),
                DEFAULT_LOCK_STALE_AFTER,
                Optional.empty());
    }
}
