package dev.fleetfix.bench;

/**
 * When a benchmark ran. {@code CALIBRATION} is the before side measured a second time, right after
 * the first: the two differ only by noise and drift, so their difference is the noise floor.
 */
public enum Phase {
    BEFORE,
    AFTER,
    CALIBRATION
}
