package dev.fleetfix.rollout.shard;

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
import java.util.stream.Collectors;

/**
 * Hosts that replication puts in one group although the inventory names them in different {@code redis_group}s: a
 * pure function of the selection and what the hosts' Redis said. A shard cut by the inventory would split what
 * replication holds together, and one cut by replication would ignore what the operator wrote; fleetfix cuts by
 * neither, it refuses ({@link Sharding.Disagreement}).
 *
 * <p>Replication joins a replica to its primary (chains, and replicas of one primary outside the selection or the
 * inventory, included) and the nodes of a Redis Cluster. Hosts of one {@code redis_group} that replication does not
 * link are no conflict: the inventory may group what replication cannot show.
 *
 * @param groups the hosts the inventory names, with their {@code redis_group}, in selection order
 * @param replication what replication says links them, one clause each
 */
public record GroupConflict(Map<String, String> groups, List<String> replication) {
    public GroupConflict {
        groups = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(groups));
        replication = List.copyOf(replication);
    }

    /** "lab-2 (redis_group a), lab-3 (redis_group b) are one replication group: lab-3 replicates from lab-2". */
    public String describe() {
        return groups.entrySet().stream()
                        .map(e -> e.getKey() + " (" + ReplicationGroups.GROUP_VAR + " " + e.getValue() + ")")
                        .collect(Collectors.joining(", "))
                + " are one replication group: " + String.join("; ", replication);
    }

    /** The conflicts of {@code selected}, one per replication group that holds more than one {@code redis_group}. */
    public static List<GroupConflict> of(List<Host> selected, Topology topology) {
        Links links = new Links();
        List<String> clusterNodes = new ArrayList<>();
        for (Host h : selected) {
            Optional<NodeState> node = topology.node(h.name());
            if (node.isEmpty() || node.get().error().isPresent()) {
                continue; // not asked or did not answer: replication says nothing of it
            }
            // a primary outside the inventory is known by its address: its replicas are one group all the same
            Optional<String> primary =
                    topology.primaryOf(h.name()).or(() -> node.get().primaryAddress());
            primary.ifPresent(p -> links.add(h.name(), p, h.name() + " replicates from " + p));
            for (String r : topology.replicasOf(h.name())) {
                links.add(r, h.name(), r + " replicates from " + h.name());
            }
            if (topology.clusterNodes().contains(h.name())) {
                clusterNodes.add(h.name());
            }
        }
        for (int i = 1; i < clusterNodes.size(); i++) {
            links.add(
                    clusterNodes.get(0),
                    clusterNodes.get(i),
                    String.join(", ", clusterNodes) + " are nodes of one Redis Cluster");
        }
        Map<String, Map<String, String>> namedByGroup = new LinkedHashMap<>();
        for (Host h : selected) {
            ReplicationGroups.groupVar(h).ifPresent(g -> namedByGroup
                    .computeIfAbsent(links.find(h.name()), k -> new LinkedHashMap<>())
                    .put(h.name(), g));
        }
        List<GroupConflict> conflicts = new ArrayList<>();
        for (var group : namedByGroup.entrySet()) {
            if (Set.copyOf(group.getValue().values()).size() > 1) {
                conflicts.add(new GroupConflict(group.getValue(), links.saying(group.getKey())));
            }
        }
        return conflicts;
    }

    /** Replication links as disjoint sets of names, each link with what it says. */
    private static final class Links {
        private final Map<String, String> parent = new HashMap<>();
        private final Map<String, Set<String>> clauses = new LinkedHashMap<>();

        void add(String a, String b, String clause) {
            String ra = find(a);
            String rb = find(b);
            Set<String> said = new LinkedHashSet<>(clauses.getOrDefault(ra, Set.of()));
            if (!ra.equals(rb)) {
                parent.put(rb, ra);
                said.addAll(clauses.getOrDefault(rb, Set.of()));
                clauses.remove(rb);
            }
            said.add(clause);
            clauses.put(ra, said);
        }

        String find(String name) {
            parent.putIfAbsent(name, name);
            String at = name;
            while (!parent.get(at).equals(at)) {
                parent.put(at, parent.get(parent.get(at)));
                at = parent.get(at);
            }
            return at;
        }

        List<String> saying(String root) {
            return List.copyOf(clauses.getOrDefault(root, Set.of()));
        }
    }
}
