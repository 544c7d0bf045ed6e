package dev.fleetfix.steps.model;

/** A step found the host in a state it cannot handle; the engine turns it into a FAILED result. */
public class StepFailure extends RuntimeException {
    public StepFailure(String message) {
        super(message);
    }
}
