package dev.fleetfix.rollout.shard;

import java.util.List;
import java.util.Objects;

/**
 * Hosts that one run must hold together: a primary with its replicas, a Sentinel set, a Redis Cluster, or what the
 * inventory names one group ({@code redis_group}). A shard takes a group whole, so the restart order inside it (replicas
 * first, one copy of the data always up) is decided by one run.
 *
 * @param hosts its hosts, in inventory order; never empty
 * @param why how the group was found, for the listing: "redis_group cache-a", "replication", "alone", ...
 */
public record ReplicationGroup(List<String> hosts, String why) {
    public ReplicationGroup {
        hosts = List.copyOf(hosts);
        if (hosts.isEmpty()) {
            throw new IllegalArgumentException("a replication group has one host at least");
        }
        Objects.requireNonNull(why, "why");
    }

    /** The group's stable name: its smallest host name, which does not depend on inventory order. */
    public String key() {
        return hosts.stream().min(String::compareTo).orElseThrow();
    }

    public int size() {
        return hosts.size();
    }
}
