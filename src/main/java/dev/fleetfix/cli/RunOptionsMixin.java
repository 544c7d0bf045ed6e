package dev.fleetfix.cli;

import dev.fleetfix.InputException;
import dev.fleetfix.rollout.ChangeWindow;
import dev.fleetfix.rollout.RunOptions;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import picocli.CommandLine.Option;

/**
 * How {@code apply} runs: check mode, diffs, forks, the change window, stale locks, and the journal
 * it keeps or resumes.
 */
final class RunOptionsMixin {
    @Option(
            names = "--run-dir",
            paramLabel = "DIR",
            description =
                    "Where the run journal (journal.jsonl) goes. Default: the --report DIR, else fleetfix-runs/RUN_ID.")
    Path runDir;

    @Option(
            names = "--resume",
            paramLabel = "DIR",
            description = "Continue the run journaled in DIR: hosts done there are skipped; same playbook,"
                    + " inventory and --limit unless given.")
    Path resume;

    @Option(
            names = "--lock-stale-after",
            paramLabel = "DURATION",
            defaultValue = "2h",
            converter = DurationConverter.class,
            description = "Report a host lock older than this as stale (never taken over). Default: ${DEFAULT-VALUE}.")
    Duration lockStaleAfter;

    @Option(names = "--check", description = "Read everything, change nothing; report what would change.")
    boolean check;

    @Option(names = "--diff", description = "Show unified diffs of the files edited (or, with --check, to edit).")
    boolean diff;

    @Option(
            names = "--forks",
            paramLabel = "N",
            defaultValue = "10",
            description = "Hosts of a batch handled at once (default: ${DEFAULT-VALUE}).")
    int forks;

    @Option(
            names = "--window",
            paramLabel = "SPEC",
            description = "Change window overriding the plays' own, e.g. \"Sat 01:00-05:00 Europe/Berlin\".")
    String window;

    /** @throws InputException for --forks below 1 or a --window that does not parse */
    RunOptions runOptions() {
        if (forks < 1) {
            throw new InputException("--forks: must be >= 1, was " + forks);
        }
        return new RunOptions(check, diff, forks, window(), Duration.ofSeconds(5));
    }

    private Optional<ChangeWindow> window() {
        if (window == null) {
            return Optional.empty();
        }
        try {
            return Optional.of(ChangeWindow.parse(window));
        } catch (IllegalArgumentException e) {
            throw new InputException("--window: " + e.getMessage());
        }
    }
}
