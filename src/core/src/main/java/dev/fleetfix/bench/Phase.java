package dev.fleetfix.bench;

/**
 * When a benchmark ran. {@code CALIBRATION} is the before side measured a second time, right after
 * the first: the two differ only by noise and drift, so their difference is the noise floor. {@code
 * CONTROL_BEFORE} and {@code CONTROL_AFTER} are hosts of a later batch, not yet changed, measured
 * right after the changed host's before and after sides: what they change by is drift.
 */
public enum Phase {
    BEFORE,
    AFTER,
    CALIBRATION,
    CONTROL_BEFORE,
    CONTROL_AFTER
}
