package dev.fleetfix.transport;

import dev.fleetfix.inventory.Connection;
import dev.fleetfix.inventory.Host;
import dev.fleetfix.inventory.RedisEndpoint;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Hosts for transport tests, built without an inventory file. */
public final class TestHosts {
    private TestHosts() {}

    public static Host local(String name, boolean become) {
        return new Host(
                name,
                "127.0.0.1",
                Host.DEFAULT_SSH_PORT,
                Optional.empty(),
                Optional.empty(),
                become,
                Optional.empty(),
                Optional.empty(),
                Connection.LOCAL,
                RedisEndpoint.defaultsFor("127.0.0.1"),
                List.of("all"),
                Map.of());
    }

    public static Host ssh(String name, String address, int port, String user, Path key, Path knownHosts) {
        return new Host(
                name,
                address,
                port,
                Optional.of(user),
                Optional.ofNullable(key),
                true,
                Optional.empty(),
                Optional.ofNullable(knownHosts),
                Connection.SSH,
                RedisEndpoint.defaultsFor(address),
                List.of("all"),
                Map.of());
    }

    public static Host withJump(Host host, String jump) {
        return new Host(
                host.name(),
                host.address(),
                host.port(),
                host.user(),
                host.keyFile(),
                host.become(),
                Optional.of(jump),
                host.knownHosts(),
                host.connection(),
                host.redis(),
                host.groups(),
                host.vars());
    }

    public static Host withoutBecome(Host host) {
        return new Host(
                host.name(),
                host.address(),
                host.port(),
                host.user(),
                host.keyFile(),
                false,
                host.jump(),
                host.knownHosts(),
                host.connection(),
                host.redis(),
                host.groups(),
                host.vars());
    }
}
