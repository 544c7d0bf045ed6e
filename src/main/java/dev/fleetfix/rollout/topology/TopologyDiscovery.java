package dev.fleetfix.rollout.topology;

import dev.fleetfix.inventory.Host;
import java.util.List;

/**
 * Finds who replicates from whom among a play's hosts. {@link ReplicationDiscovery} asks every
 * host's Redis for {@code INFO replication}; a Sentinel or {@code CLUSTER NODES} source would
 * implement this same interface.
 */
@FunctionalInterface
public interface TopologyDiscovery {
    /** Never throws for an unreachable host: its state says so and the topology notes it. */
    Topology discover(List<Host> hosts);
}
