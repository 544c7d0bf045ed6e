package dev.fleetfix.cli;

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
}
