package dev.fleetfix.lab;

/** The lab could not do what was asked: Docker missing, an image that does not build, a host that does not boot. */
public class LabException extends RuntimeException {
    public LabException(String message) {
        super(message);
    }

    public LabException(String message, Throwable cause) {
        super(message, cause);
    }
}
