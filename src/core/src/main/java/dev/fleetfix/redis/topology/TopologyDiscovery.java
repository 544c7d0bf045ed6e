package dev.fleetfix.redis.topology;

import dev.fleetfix.inventory.Host;
import java.util.List;

/**
 * Finds who replicates from whom among a play's hosts. {@link RedisDiscovery} asks every host's
 * Redis, the inventory's Sentinels and {@code CLUSTER NODES}; tests pass a fixed topology.
 */
@FunctionalInterface
public interface TopologyDiscovery {
    /** Never throws for an unreachable host: its state says so and the topology notes it. */
    Topology discover(List<Host> hosts);
}
