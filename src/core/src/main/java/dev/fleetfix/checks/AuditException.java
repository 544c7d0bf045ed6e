package dev.fleetfix.checks;

/** A host was reached but its facts could not be gathered (the fact script failed). Names the host. */
public class AuditException extends RuntimeException {
    public AuditException(String message) {
        super(message);
    }
}
