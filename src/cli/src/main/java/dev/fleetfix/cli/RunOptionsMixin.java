package dev.fleetfix.cli;

import dev.fleetfix.InputException;
import dev.fleetfix.playbook.TagSelection;
import dev.fleetfix.rollout.ApplyRequest;
import dev.fleetfix.rollout.plan.ChangeWindow;
import dev.fleetfix.rollout.plan.RunOptions;
import dev.fleetfix.rollout.plan.RunOptionsBuilder;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import picocli.CommandLine.Option;

/**
 * How {@code apply} runs: check mode, diffs, the change window, stale locks, and the journal
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
            names = "--force",
            description = "With --resume: resume even though the playbook or the inventory changed since the run"
                    + " started (without it, that is refused, naming what changed).")
    boolean force;

    @Option(
            names = "--lock-stale-after",
            paramLabel = "DURATION",
            defaultValue = "2h",
            converter = DurationConverter.class,
            description = "Report a host lock older than this as stale (never taken over). Default: ${DEFAULT-VALUE}.")
    Duration lockStaleAfter;

    // Check mode runs the guards as they are: the only way to know whether apply would skip a command is to ask the
    // host. Ansible runs its check_mode: false tasks too; the help says so, so that no one reads --check as "runs
    // nothing on the hosts".
    @Option(
            names = {"-C", "--check"},
            description = "Change nothing; report what would change. It still runs commands on the hosts, as apply"
                    + " would, to know what apply would do or skip: the facts script (as root with become) and"
                    + " every 'command' step's guards, its 'creates:' test and its 'unless:' command as written"
                    + " (as the SSH user; as Ansible runs its check_mode: false tasks). Write guards that only read.")
    boolean check;

    @Option(
            names = {"-D", "--diff"},
            description = "Show unified diffs of the files edited (or, with --check, to edit).")
    boolean diff;

    @Option(
            names = "--window",
            paramLabel = "SPEC",
            description = "Change window overriding the plays' own, e.g. \"Sat 01:00-05:00 Europe/Berlin\".")
    String window;

    @Option(
            names = "--start-at-task",
            paramLabel = "NAME",
            description = "Start at the first step with this name (its name:, else its type; a glob such as"
                    + " 'benchmark *' works); the steps and plays before it are not run. Refused, with the reason,"
                    + " when a kept step needs a skipped one (an after benchmark its before benchmark), judged on the"
                    + " steps that --tags and --skip-tags keep.")
    String startAtTask;

    @Option(
            names = "--syntax-check",
            description = "Check the playbook, the inventory and every variable, as a run would before its first"
                    + " host, and connect to nothing. Exit 0 when all is well, 2 naming file and line when not.")
    boolean syntaxCheck;

    /**
     * The run {@code --resume DIR} continues, read from its journal.
     *
     * @throws InputException for {@code --force} without {@code --resume}
     */
    Optional<ApplyRequest.Resume> resumed() {
        if (force && resume == null) {
            throw new InputException("--force: only with --resume DIR (it resumes a run whose playbook or inventory"
                    + " changed since it started)");
        }
        return Optional.ofNullable(resume).map(dir -> ApplyRequest.Resume.read(dir, force));
    }

    /**
     * How to run, with these forks, extra vars and tags; the journal goes to {@code --run-dir}, else {@code
     * reportDir}.
     *
     * @throws InputException for a --window that does not parse
     */
    RunOptions runOptions(int forks, Map<String, Object> extraVars, TagSelection tags, Optional<Path> reportDir) {
        return RunOptionsBuilder.builder(RunOptions.defaults())
                .check(check)
                .diff(diff)
                .forks(forks)
                .window(window())
                .extraVars(extraVars)
                .startAtTask(Optional.ofNullable(startAtTask))
                .tags(tags)
                .lockStaleAfter(lockStaleAfter)
                .journalDir(Optional.ofNullable(runDir).or(() -> reportDir))
                .build();
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
