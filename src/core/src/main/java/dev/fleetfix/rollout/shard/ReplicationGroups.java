package dev.fleetfix.rollout.shard;

import dev.fleetfix.Secret;
import dev.fleetfix.Unevaluated;
import dev.fleetfix.inventory.Host;
import dev.fleetfix.redis.topology.NodeState;
import dev.fleetfix.redis.topology.Topology;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * The replication groups of a selection, from the inventory and, where it does not say, from what the hosts' Redis
 * reported: a pure function, tested without I/O.
 *
 * <ul>
 *   <li>Hosts with the same {@code redis_group} variable (set on the host or on an Ansible group) are one group.
 *   <li>The hosts of group {@code sentinel} are one Sentinel set, and stay with the groups they belong to.
 *   <li>From a discovery: a replica joins its primary (chains included), and every node of a Redis Cluster joins one
 *       group.
 *   <li>Any other host is a group of its own.
 * </ul>
 *
 * A host that the discovery could not ask, and whose group the inventory does not name, cannot be placed: its
 * group is unknown, and {@link #unplaced} says why.
 *
 * @param groups every group, ordered by its first host in the selection
 * @param unplaced hosts whose group is unknown, with the reason, in selection order
 */
public record ReplicationGroups(List<ReplicationGroup> groups, Map<String, String> unplaced) {
    /** The inventory variable that names a host's replication group. */
    public static final String GROUP_VAR = "redis_group";

    public ReplicationGroups {
        groups = List.copyOf(groups);
        unplaced = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(unplaced));
    }

    /**
     * Groups {@code selected}.
     *
     * @param sentinels names of the hosts that run a Sentinel (the inventory's group {@code sentinel})
     * @param topology what the hosts without {@code redis_group} reported; empty to read the inventory only
     */
    public static ReplicationGroups of(List<Host> selected, Set<String> sentinels, Optional<Topology> topology) {
        UnionFind sets = new UnionFind();
        Map<String, Set<String>> why = new HashMap<>();
        Map<String, String> byGroupVar = new HashMap<>();
        Set<String> names = new LinkedHashSet<>();
        String firstSentinel = null;
        for (Host h : selected) {
            names.add(h.name());
            sets.add(h.name());
            Optional<String> named = groupVar(h);
            if (named.isPresent()) {
                String first = byGroupVar.putIfAbsent(named.get(), h.name());
                if (first != null) {
                    sets.union(first, h.name());
                }
                note(why, h.name(), GROUP_VAR + " " + named.get());
            }
            if (sentinels.contains(h.name())) {
                firstSentinel = firstSentinel == null ? h.name() : firstSentinel;
                sets.union(firstSentinel, h.name());
                note(why, h.name(), "sentinel set");
            }
        }
        Map<String, String> unplaced = new LinkedHashMap<>();
        topology.ifPresent(t -> link(t, selected, names, sets, why, unplaced));
        Map<String, List<String>> members = new LinkedHashMap<>();
        for (String name : names) {
            members.computeIfAbsent(sets.find(name), k -> new ArrayList<>()).add(name);
        }
        List<ReplicationGroup> groups = new ArrayList<>();
        for (List<String> hosts : members.values()) {
            Set<String> reasons = new TreeSet<>();
            hosts.forEach(h -> reasons.addAll(why.getOrDefault(h, Set.of())));
            groups.add(new ReplicationGroup(hosts, reasons.isEmpty() ? "alone" : String.join(", ", reasons)));
        }
        return new ReplicationGroups(groups, unplaced);
    }

    private static void link(
            Topology topology,
            List<Host> selected,
            Set<String> names,
            UnionFind sets,
            Map<String, Set<String>> why,
            Map<String, String> unplaced) {
        String firstClusterNode = null;
        for (Host h : selected) {
            Optional<NodeState> node = topology.node(h.name());
            if (node.isEmpty()) {
                continue; // not asked: the inventory names its group, or fleetfix cannot reach it (winrm, ...)
            }
            if (node.get().error().isPresent() && groupVar(h).isEmpty()) {
                unplaced.put(h.name(), node.get().error().get());
                continue;
            }
            Optional<String> primary = topology.primaryOf(h.name()).filter(names::contains);
            List<String> replicas = topology.replicasOf(h.name()).stream()
                    .filter(names::contains)
                    .toList();
            primary.ifPresent(p -> sets.union(p, h.name()));
            replicas.forEach(r -> sets.union(h.name(), r));
            if (primary.isPresent() || !replicas.isEmpty()) {
                note(why, h.name(), "replication");
            }
            if (topology.clusterNodes().contains(h.name())) {
                firstClusterNode = firstClusterNode == null ? h.name() : firstClusterNode;
                sets.union(firstClusterNode, h.name());
                note(why, h.name(), "cluster");
            }
        }
    }

    /**
     * The host's {@code redis_group}, when the inventory sets one. A vaulted one is revealed; one that cannot be
     * evaluated, or that may be in a vaulted file not decrypted, refuses with its place: a shard must not guess.
     */
    static Optional<String> groupVar(Host host) {
        Object value = host.printableVars().get(GROUP_VAR);
        if (value instanceof Unevaluated unusable) {
            throw unusable.problem();
        }
        if (value instanceof Secret secret) {
            value = secret.revealAsSetting();
        }
        return value == null || value.toString().isBlank()
                ? Optional.empty()
                : Optional.of(value.toString().strip());
    }

    private static void note(Map<String, Set<String>> why, String host, String reason) {
        why.computeIfAbsent(host, k -> new TreeSet<>()).add(reason);
    }

    /** Disjoint sets of host names, by path halving. */
    private static final class UnionFind {
        private final Map<String, String> parent = new HashMap<>();

        void add(String name) {
            parent.putIfAbsent(name, name);
        }

        String find(String name) {
            add(name);
            String at = name;
            while (!parent.get(at).equals(at)) {
                parent.put(at, parent.get(parent.get(at)));
                at = parent.get(at);
            }
            return at;
        }

        void union(String a, String b) {
            String ra = find(a);
            String rb = find(b);
            if (!ra.equals(rb)) {
                parent.put(rb, ra);
            }
        }
    }
}
