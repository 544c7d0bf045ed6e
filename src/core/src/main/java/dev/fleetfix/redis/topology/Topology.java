package dev.fleetfix.redis.topology;

import dev.fleetfix.inventory.Host;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Who replicates from whom among a play's hosts, as their Redis servers reported it. Hosts are
 * matched by Redis address and port against the inventory; a primary or replica outside the
 * inventory is kept as an address only.
 *
 * @param nodes every asked host's state, by inventory name, in play order
 * @param source where the topology came from
 * @param notes what planning should tell the user (unreachable hosts, unmatched replicas, what
 *     Sentinel and the cluster say)
 * @param clusterNodes the asked hosts that run in cluster mode: one Redis Cluster, which a shard takes whole
 */
public record Topology(Map<String, NodeState> nodes, Source source, List<String> notes, Set<String> clusterNodes) {

    /** Where a topology was read. */
    public enum Source {
        /** {@code INFO replication} of every host. */
        REPLICATION,
        /** The inventory names Sentinels: their primaries fail over through {@code SENTINEL FAILOVER}. */
        SENTINEL,
        /** Redis Cluster ({@code CLUSTER NODES}): primaries fail over through {@code CLUSTER FAILOVER}. */
        CLUSTER,
        /** Topology discovery is off: inventory order. */
        OFF
    }

    public Topology {
        nodes = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(nodes));
        notes = List.copyOf(notes);
        clusterNodes = Set.copyOf(clusterNodes);
    }

    public Topology(Map<String, NodeState> nodes, Source source, List<String> notes) {
        this(nodes, source, notes, Set.of());
    }

    /** The same topology, with the hosts that answered in cluster mode. */
    public Topology withClusterNodes(Set<String> hosts) {
        return new Topology(nodes, source, notes, hosts);
    }

    public static Topology off() {
        return new Topology(Map.of(), Source.OFF, List.of());
    }

    /**
     * Links states reported by hosts into a topology: each replica's primary and each primary's
     * replicas are matched by address and port against {@code hosts}.
     */
    public static Topology of(Collection<Host> hosts, Collection<NodeState> states, Source source, List<String> notes) {
        Map<String, String> byAddress = new HashMap<>();
        for (Host h : hosts) {
            byAddress.putIfAbsent(h.redis().address() + ":" + h.redis().port(), h.name());
            byAddress.putIfAbsent(h.address() + ":" + h.redis().port(), h.name());
        }
        List<String> allNotes = new ArrayList<>(notes);
        Map<String, NodeState> linked = new LinkedHashMap<>();
        for (NodeState s : states) {
            Optional<String> primary = s.primaryAddress().map(byAddress::get);
            if (s.primaryAddress().isPresent() && primary.isEmpty()) {
                allNotes.add(s.host() + " replicates from " + s.primaryAddress().get() + ", not in the inventory");
            }
            List<ReplicaLink> replicas = s.replicas().stream()
                    .map(r -> r.withHost(Optional.ofNullable(byAddress.get(r.ip() + ":" + r.port()))))
                    .toList();
            replicas.stream()
                    .filter(r -> r.host().isEmpty())
                    .forEach(r -> allNotes.add(s.host() + " has replica " + r.describe() + ", not in the inventory"));
            s.error().ifPresent(e -> allNotes.add(s.host() + ": role unknown (" + e + ")"));
            linked.put(
                    s.host(),
                    new NodeState(
                            s.host(),
                            s.role(),
                            s.primaryAddress(),
                            primary,
                            s.linkUp(),
                            s.offset(),
                            replicas,
                            s.error()));
        }
        return new Topology(linked, source, allNotes);
    }

    public Optional<NodeState> node(String host) {
        return Optional.ofNullable(nodes.get(host));
    }

    /** The inventory host a replica replicates from. */
    public Optional<String> primaryOf(String host) {
        return node(host).flatMap(NodeState::primary);
    }

    /** Inventory hosts replicating from {@code host}, as either side reports it, in play order. */
    public List<String> replicasOf(String host) {
        Set<String> replicas = new LinkedHashSet<>();
        for (NodeState s : nodes.values()) {
            if (s.primary().filter(host::equals).isPresent()) {
                replicas.add(s.host());
            }
        }
        node(host).ifPresent(p -> p.replicas().forEach(r -> r.host().ifPresent(replicas::add)));
        replicas.remove(host);
        return List.copyOf(replicas);
    }

    /**
     * Replicas of {@code host} that hold its data now: the replica reports its link up, or the
     * primary lists it online (when the replica itself was not asked).
     */
    public List<String> inSyncReplicasOf(String host) {
        List<String> inSync = new ArrayList<>();
        for (String replica : replicasOf(host)) {
            Optional<NodeState> own = node(replica).filter(s -> s.error().isEmpty());
            boolean up = own.isPresent()
                    ? own.get().linkUp()
                    : node(host).stream()
                            .flatMap(p -> p.replicas().stream())
                            .anyMatch(r -> r.host().filter(replica::equals).isPresent() && r.online(10));
            if (up) {
                inSync.add(replica);
            }
        }
        return inSync;
    }

    /**
     * The hosts with every replica before its primary (depth first, so a chained replica comes
     * before the replica it follows); otherwise inventory order.
     */
    public List<Host> order(List<Host> hosts) {
        Map<String, Host> byName = new LinkedHashMap<>();
        hosts.forEach(h -> byName.put(h.name(), h));
        List<Host> ordered = new ArrayList<>();
        Set<String> seen = new LinkedHashSet<>();
        for (Host h : hosts) {
            visit(h.name(), byName, seen, ordered);
        }
        return ordered;
    }

    private void visit(String host, Map<String, Host> byName, Set<String> seen, List<Host> ordered) {
        if (!byName.containsKey(host) || !seen.add(host)) {
            return;
        }
        for (String replica : replicasOf(host)) {
            visit(replica, byName, seen, ordered);
        }
        ordered.add(byName.get(host));
    }

    /** "lab-1 primary of lab-2, lab-3": one line per replication group, for plans and reports. */
    public List<String> describe() {
        List<String> lines = new ArrayList<>();
        for (NodeState s : nodes.values()) {
            List<String> replicas = replicasOf(s.host());
            if (s.role() == NodeRole.PRIMARY && !replicas.isEmpty()) {
                List<String> inSync = inSyncReplicasOf(s.host());
                lines.add(s.host() + " primary of " + String.join(", ", replicas)
                        + (inSync.size() == replicas.size()
                                ? " (in sync)"
                                : " (in sync: " + (inSync.isEmpty() ? "none" : String.join(", ", inSync)) + ")"));
            }
        }
        return lines;
    }
}
