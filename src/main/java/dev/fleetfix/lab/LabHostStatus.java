package dev.fleetfix.lab;

import java.util.Objects;
import java.util.Optional;

/**
 * What {@code fleetfix lab status} shows for one host.
 *
 * @param state the container's state as Docker names it ({@code running}, {@code exited}), or {@code missing}
 * @param role what Redis's ROLE says ({@code master}, {@code slave}); empty when it does not answer or wants a
 *     password
 * @param sentinelUp whether the host's Sentinel answers; false when it runs none
 */
public record LabHostStatus(
        LabHost host, String state, boolean sshUp, boolean redisUp, Optional<String> role, boolean sentinelUp) {
    public LabHostStatus {
        Objects.requireNonNull(host, "host");
        Objects.requireNonNull(state, "state");
        Objects.requireNonNull(role, "role");
    }
}
