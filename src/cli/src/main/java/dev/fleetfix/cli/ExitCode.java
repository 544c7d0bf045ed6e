package dev.fleetfix.cli;

import dev.fleetfix.rollout.event.RunOutcome;
import dev.fleetfix.rollout.event.RunSummary;

/** fleetfix's exit codes; README.md documents them. */
public final class ExitCode {
    /** Everything ok, nothing to report. */
    public static final int OK = 0;
    /** Findings (hosts at risk) or host failures. */
    public static final int FINDINGS = 1;
    /** Bad usage or bad input (options, inventory, playbook); no host was touched. */
    public static final int USAGE = 2;
    /** {@code --check}: changes are pending. */
    public static final int CHANGES_PENDING = 3;

    private ExitCode() {}

    /** A run's exit code: ok, findings when it did not end ok, changes pending in check mode. */
    static int of(RunSummary summary, boolean check) {
        if (summary.outcome() != RunOutcome.OK) {
            return FINDINGS;
        }
        return check && summary.changesPending() ? CHANGES_PENDING : OK;
    }
}
