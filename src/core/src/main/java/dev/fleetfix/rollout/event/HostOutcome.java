package dev.fleetfix.rollout.event;

/** How a host ended a play (or the run). */
public enum HostOutcome {
    /** Every step ran and no step failed. */
    DONE,
    /** A step failed. */
    FAILED,
    /** The host could not be reached. */
    UNREACHABLE,
    /** The host was never started: the rollout halted or the window closed first. */
    UNTOUCHED;

    public boolean failed() {
        return this == FAILED || this == UNREACHABLE;
    }
}
