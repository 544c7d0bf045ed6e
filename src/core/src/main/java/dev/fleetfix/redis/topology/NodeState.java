package dev.fleetfix.redis.topology;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * What one host's Redis said about its replication.
 *
 * @param host inventory name
 * @param role its role, UNKNOWN when it could not be asked
 * @param primaryAddress a replica's {@code master_host:master_port}
 * @param primary the inventory host at that address, when there is one
 * @param linkUp a replica's {@code master_link_status:up} (false on a primary)
 * @param offset {@code master_repl_offset} on a primary, {@code slave_repl_offset} on a replica
 * @param replicas a primary's connected replicas
 * @param error why the host could not be asked; empty when it answered
 */
public record NodeState(
        String host,
        NodeRole role,
        Optional<String> primaryAddress,
        Optional<String> primary,
        boolean linkUp,
        long offset,
        List<ReplicaLink> replicas,
        Optional<String> error) {

    public NodeState {
        Objects.requireNonNull(host, "host");
        Objects.requireNonNull(role, "role");
        Objects.requireNonNull(primaryAddress, "primaryAddress");
        Objects.requireNonNull(primary, "primary");
        replicas = List.copyOf(replicas);
        Objects.requireNonNull(error, "error");
    }

    public static NodeState unreachable(String host, String why) {
        return new NodeState(
                host, NodeRole.UNKNOWN, Optional.empty(), Optional.empty(), false, -1, List.of(), Optional.of(why));
    }

    /**
     * Reads {@code INFO replication}. Replica addresses are left unmatched ({@code host} empty);
     * {@link Topology#of} matches them against the inventory.
     */
    public static NodeState fromInfo(String host, Map<String, String> replication) {
        NodeRole role = NodeRole.of(replication.get("role"));
        Optional<String> primaryAddress = Optional.empty();
        if (role == NodeRole.REPLICA && replication.containsKey("master_host")) {
            primaryAddress = Optional.of(replication.get("master_host") + ":" + replication.get("master_port"));
        }
        long offset = role == NodeRole.REPLICA
                ? ReplicaLink.number(replication.get("slave_repl_offset"), -1)
                : ReplicaLink.number(replication.get("master_repl_offset"), -1);
        List<ReplicaLink> replicas = replication.entrySet().stream()
                .filter(e -> e.getKey().matches("slave\\d+"))
                .sorted(Map.Entry.comparingByKey())
                .map(e -> ReplicaLink.parse(e.getValue()))
                .flatMap(Optional::stream)
                .toList();
        return new NodeState(
                host,
                role,
                primaryAddress,
                Optional.empty(),
                "up".equals(replication.get("master_link_status")),
                offset,
                replicas,
                Optional.empty());
    }
}
