package dev.fleetfix.lab;

import java.util.Objects;
import java.util.OptionalInt;

/**
 * A running lab host: its name and where its sshd, Redis and, when it runs one, Redis Sentinel listen.
 *
 * @param sentinelPort the port of the host's Sentinel on {@code address}, empty when it runs none
 */
public record LabHost(String name, String address, int sshPort, int redisPort, OptionalInt sentinelPort) {
    public LabHost {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(address, "address");
        Objects.requireNonNull(sentinelPort, "sentinelPort");
    }

    /** A host without Sentinel. */
    public LabHost(String name, String address, int sshPort, int redisPort) {
        this(name, address, sshPort, redisPort, OptionalInt.empty());
    }
}
