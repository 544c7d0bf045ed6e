package dev.fleetfix.checks;

import dev.fleetfix.inventory.Connection;
import dev.fleetfix.inventory.Host;
import dev.fleetfix.inventory.RedisEndpoint;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Inventory hosts for unit tests, on loopback addresses like the lab's. */
final class TestHosts {
    private TestHosts() {}

    static Host host(String name, String address, boolean become) {
        return new Host(
                name,
                address,
                22,
                Optional.of("fleetfix"),
                Optional.empty(),
                become,
                Optional.empty(),
                Optional.empty(),
                Connection.SSH,
                RedisEndpoint.defaultsFor(address),
                List.of("all", "redis"),
                Map.of());
    }

    static Host host(String name, String address) {
        return host(name, address, true);
    }
}
