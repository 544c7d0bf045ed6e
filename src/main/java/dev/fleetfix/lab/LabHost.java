package dev.fleetfix.lab;

import java.util.Objects;

/** A running lab host: its name and where its sshd and Redis listen. */
public record LabHost(String name, String address, int sshPort, int redisPort) {
    public LabHost {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(address, "address");
    }
}
