package dev.fleetfix.bench;

/** Which side of a remediation a benchmark run measured. */
public enum Phase {
    BEFORE,
    AFTER
}
