package dev.fleetfix.steps.model;

/** How a step ended on one host, as Ansible reports it. */
public enum StepStatus {
    /** Nothing to do: the host already was as asked. */
    OK,
    /** The step changed the host (in check mode: would change it). */
    CHANGED,
    /** The step did not run ({@code when} was false, nothing to restart...). */
    SKIPPED,
    /** The step ran and failed; the host stops here. */
    FAILED,
    /** The host could not be reached (after retries); the host stops here. */
    UNREACHABLE;

    public boolean stopsHost() {
        return this == FAILED || this == UNREACHABLE;
    }
}
