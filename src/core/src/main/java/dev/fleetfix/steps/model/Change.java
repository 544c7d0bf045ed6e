package dev.fleetfix.steps.model;

import java.util.Objects;

/**
 * One thing a step changed (or, in check mode, would change).
 *
 * @param what what changed ({@code thp.enabled}, {@code /etc/systemd/system/fleetfix-thp.service})
 * @param before the value before ("always", "absent")
 * @param after the value after ("never", "present")
 */
public record Change(String what, String before, String after) {
    public Change {
        Objects.requireNonNull(what, "what");
        Objects.requireNonNull(before, "before");
        Objects.requireNonNull(after, "after");
    }
}
