package dev.fleetfix.rollout.event;

/** How a run ended. Everything but {@link #OK} maps to exit code 1. */
public enum RunOutcome {
    /** Every host done. */
    OK,
    /** Some hosts failed, within max_fail_percentage. */
    HOSTS_FAILED,
    /** A batch exceeded max_fail_percentage, or the circuit breaker opened: no new host was started. */
    HALTED,
    /** The change window closed during the run: hosts in flight finished, no new host was started. */
    WINDOW_CLOSED,
    /** The change window was closed when the run started: no host was touched. */
    REFUSED_OUTSIDE_WINDOW
}
