package dev.fleetfix.lab;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * Who replicates from whom in a lab, checked before any container exists: the hosts a Sentinel runs on and the one
 * primary they monitor, the Redis Cluster's primaries and replicas. A layout that Redis would refuse, or that would
 * leave a failover unable to finish, is rejected with a message naming the hosts.
 */
final class LabTopology {
    private final Map<String, LabHostSpec> specs;

    private LabTopology(Map<String, LabHostSpec> specs) {
        this.specs = specs;
    }

    /** Validates {@code specs} as one lab. */
    static LabTopology of(List<LabHostSpec> specs) {
        Objects.requireNonNull(specs, "specs");
        if (specs.isEmpty() || specs.size() > LabFleet.MAX_HOSTS) {
            throw new IllegalArgumentException("a lab has 1.." + LabFleet.MAX_HOSTS + " hosts, was " + specs.size());
        }
        Map<String, LabHostSpec> byName = new LinkedHashMap<>();
        for (LabHostSpec spec : specs) {
            if (byName.put(spec.name(), spec) != null) {
                throw new IllegalArgumentException("lab host names must be unique, '" + spec.name() + "' is twice");
            }
        }
        LabTopology topology = new LabTopology(byName);
        topology.checkReplicaOf();
        topology.checkCluster();
        topology.checkSentinel();
        return topology;
    }

    List<LabHostSpec> specs() {
        return List.copyOf(specs.values());
    }

    LabHostSpec spec(String name) {
        LabHostSpec spec = specs.get(name);
        if (spec == null) {
            throw new IllegalArgumentException("no lab host '" + name + "'");
        }
        return spec;
    }

    /** Hosts whose replicaOf names {@code primary}, in spec order. */
    List<String> replicasOf(String primary) {
        return specs.values().stream()
                .filter(s -> s.replicaOf().filter(primary::equals).isPresent())
                .map(LabHostSpec::name)
                .toList();
    }

    /** Hosts that run a Sentinel, in spec order. */
    List<String> sentinels() {
        return names(LabHostSpec::sentinel);
    }

    /**
     * The primary the Sentinels monitor: the non-cluster host others replicate from, without its own primary, whose
     * replication group the Sentinels run in (the only such host, when they run on hosts of no group).
     */
    Optional<String> sentinelPrimary() {
        if (sentinels().isEmpty()) {
            return Optional.empty();
        }
        List<String> watched = sentinelRoots();
        return Optional.of(watched.isEmpty() ? replicationRoots().get(0) : watched.get(0));
    }

    /** The replication roots whose group (the root and the hosts replicating from it) runs a Sentinel. */
    private List<String> sentinelRoots() {
        List<String> sentinels = sentinels();
        return replicationRoots().stream()
                .filter(root ->
                        sentinels.contains(root) || replicasOf(root).stream().anyMatch(sentinels::contains))
                .toList();
    }

    /** Sentinels that must agree that the primary is down: a majority of them. */
    int quorum() {
        return sentinels().size() / 2 + 1;
    }

    /** Cluster nodes without replicaOf: they own the slots. */
    List<String> clusterPrimaries() {
        return names(s -> s.cluster() && s.replicaOf().isEmpty());
    }

    /** Cluster nodes with replicaOf, in spec order. */
    List<String> clusterReplicas() {
        return names(s -> s.cluster() && s.replicaOf().isPresent());
    }

    /** Every cluster node, in spec order. */
    List<String> clusterNodes() {
        return names(LabHostSpec::cluster);
    }

    private List<String> names(java.util.function.Predicate<LabHostSpec> filter) {
        return specs.values().stream().filter(filter).map(LabHostSpec::name).toList();
    }

    /** Non-cluster hosts that others replicate from and that replicate from no one. */
    private List<String> replicationRoots() {
        return names(s ->
                !s.cluster() && s.replicaOf().isEmpty() && !replicasOf(s.name()).isEmpty());
    }

    private void checkReplicaOf() {
        for (LabHostSpec spec : specs.values()) {
            spec.replicaOf().ifPresent(primary -> {
                if (!specs.containsKey(primary)) {
                    throw new IllegalArgumentException("host " + spec.name() + ": replicaOf names no lab host: '"
                            + primary + "' (hosts: " + String.join(", ", specs.keySet()) + ")");
                }
                LabHostSpec upstream = specs.get(primary);
                // A replica loads its primary's RDB: an older server refuses a newer format, and a lab replica of
                // another flavour or a host with several instances would not say which one it follows.
                if (spec.server() != upstream.server() || upstream.instances() > 1) {
                    throw new IllegalArgumentException("host " + spec.name() + ": replicaOf '" + primary
                            + "' must run the same server with one instance (" + spec.name() + " " + spec.server()
                            + ", " + primary + " " + upstream.server() + " with " + upstream.instances()
                            + " instance(s))");
                }
                if (spec.cluster() != specs.get(primary).cluster()) {
                    throw new IllegalArgumentException("host " + spec.name() + ": replicaOf '" + primary
                            + "' mixes cluster and non-cluster Redis (" + spec.name() + " cluster="
                            + spec.cluster() + ", " + primary + " cluster="
                            + specs.get(primary).cluster()
                            + "): a cluster node replicates only from a cluster primary, a plain Redis only from a"
                            + " plain Redis");
                }
            });
        }
    }

    private void checkCluster() {
        for (String replica : clusterReplicas()) {
            String primary = specs.get(replica).replicaOf().orElseThrow();
            if (specs.get(primary).replicaOf().isPresent()) {
                throw new IllegalArgumentException("host " + replica + ": replicaOf '" + primary
                        + "' is itself a cluster replica; a cluster replica follows a cluster primary"
                        + " (CLUSTER REPLICATE)");
            }
        }
        // After a CLUSTER FAILOVER the old primary follows its replica with its own masterauth: one password for all.
        samePassword(clusterNodes(), "cluster nodes");
    }

    private void checkSentinel() {
        List<String> sentinels = sentinels();
        if (sentinels.isEmpty()) {
            return;
        }
        List<String> roots = replicationRoots();
        if (roots.isEmpty()) {
            throw new IllegalArgumentException("Sentinel on " + String.join(", ", sentinels)
                    + " needs a primary to monitor: no non-cluster host has replicas (set replicaOf on the replicas)");
        }
        List<String> watched = sentinelRoots();
        if (watched.size() > 1) {
            throw new IllegalArgumentException("Sentinel on " + String.join(", ", sentinels)
                    + " monitors one primary, but runs in the replication groups of " + String.join(", ", watched));
        }
        if (watched.isEmpty() && roots.size() > 1) {
            throw new IllegalArgumentException("Sentinel on " + String.join(", ", sentinels)
                    + " monitors one primary, but several hosts have replicas: " + String.join(", ", roots)
                    + " (run the Sentinels on the hosts of the group they watch)");
        }
        String primary = sentinelPrimary().orElseThrow();
        List<String> group = new ArrayList<>();
        group.add(primary);
        group.addAll(replicasOf(primary));
        // Sentinel knows one auth-pass per master name, used for the primary and every replica it promotes.
        samePassword(group, "the primary and replicas that Sentinel manages");
    }

    /** Passwords are never shown: groups of hosts are told apart as "password 1", "password 2", "no password". */
    private void samePassword(List<String> hosts, String what) {
        Map<Optional<String>, List<String>> byPassword = hosts.stream()
                .collect(Collectors.groupingBy(
                        h -> specs.get(h).requirepass(), LinkedHashMap::new, Collectors.toList()));
        if (byPassword.size() <= 1) {
            return;
        }
        List<String> groups = new ArrayList<>();
        int passwords = 0;
        for (Map.Entry<Optional<String>, List<String>> entry : byPassword.entrySet()) {
            String label = entry.getKey().isPresent() ? "password " + ++passwords : "no password";
            groups.add(String.join(", ", entry.getValue()) + ": " + label);
        }
        throw new IllegalArgumentException(
                what + " must share one requirepass; they have " + String.join("; ", groups));
    }
}
