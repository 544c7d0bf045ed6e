package dev.fleetfix.redis.topology;

import dev.fleetfix.Counts;
import dev.fleetfix.Crash;
import dev.fleetfix.Forks;
import dev.fleetfix.inventory.Host;
import dev.fleetfix.inventory.Inventory;
import dev.fleetfix.redis.ClusterNode;
import dev.fleetfix.redis.RedisConnector;
import dev.fleetfix.redis.RedisException;
import dev.fleetfix.redis.RedisNode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Topology from every host's Redis ({@code INFO replication}, asked in parallel), from the
 * inventory's Sentinels when it names some ({@code SENTINEL MASTERS}), and from {@code CLUSTER NODES}
 * when the hosts run Redis Cluster. Replication links order the hosts; Sentinel and the cluster say
 * how each primary will be failed over, and what planning should warn about. Replicas and primaries
 * are matched against the whole inventory, so a primary outside the play is still known by name.
 */
public final class RedisDiscovery implements TopologyDiscovery {
    private final Inventory inventory;
    private final RedisConnector redis;
    private final Sentinels sentinels;
    private final Duration timeout;
    private final int forks;
    private final Map<String, List<ClusterNode>> clusterNodes = new ConcurrentHashMap<>();

    public RedisDiscovery(Inventory inventory, RedisConnector redis, Duration timeout, int forks) {
        this.inventory = inventory;
        this.redis = redis;
        this.sentinels = Sentinels.of(inventory, redis);
        this.timeout = timeout;
        this.forks = forks;
    }

    @Override
    public Topology discover(List<Host> hosts) {
        clusterNodes.clear();
        List<NodeState> states = new ArrayList<>();
        for (Forks.Outcome<Host, NodeState> o : Forks.run(hosts, forks, this::ask)) {
            states.add(o.value()
                    .orElseGet(() -> NodeState.unreachable(
                            o.input().name(),
                            o.error().map(Throwable::getMessage).orElse("?"))));
        }
        Topology.Source source = Topology.Source.REPLICATION;
        List<String> notes = new ArrayList<>();
        if (sentinels.named()) {
            source = Topology.Source.SENTINEL;
            notes.addAll(sentinelNotes(states));
        }
        if (!clusterNodes.isEmpty()) {
            source = Topology.Source.CLUSTER;
            notes.addAll(clusterNotes(hosts));
        }
        return Topology.of(inventory.hosts(), states, source, notes).withClusterNodes(clusterNodes.keySet());
    }

    private NodeState ask(Host host) {
        try (RedisNode node = redis.connect(host, timeout)) {
            Map<String, String> replication = node.info("replication");
            if ("1".equals(node.info("cluster").get("cluster_enabled"))) {
                clusterNodes.put(host.name(), ClusterNode.parseAll(node.command("CLUSTER", "NODES")));
            }
            return NodeState.fromInfo(host.name(), replication);
        } catch (RedisException e) {
            return NodeState.unreachable(host.name(), e.getMessage());
        } catch (RuntimeException | StackOverflowError | OutOfMemoryError e) {
            // one host's crash (a library's bug, an exhausted stack) leaves its role unknown, never the others'
            return NodeState.unreachable(host.name(), Crash.describe(e));
        }
    }

    /** What the Sentinels monitor, and where that disagrees with what the hosts said. */
    private List<String> sentinelNotes(List<NodeState> states) {
        List<String> notes = new ArrayList<>();
        List<SentinelMaster> masters;
        try {
            Sentinels.Answer<List<SentinelMaster>> answer = sentinels.masters(timeout);
            masters = answer.value();
            notes.add("sentinel " + answer.sentinel() + " monitors " + masters.size() + " primar"
                    + (masters.size() == 1 ? "y" : "ies"));
        } catch (RedisException e) {
            notes.add(e.detail() + ": primaries with replicas will not be restarted (whether Sentinel manages them is"
                    + " unknown)");
            return notes;
        }
        Map<String, NodeState> byName = new HashMap<>();
        states.forEach(s -> byName.put(s.host(), s));
        for (SentinelMaster m : masters) {
            Optional<Host> host = hostAt(m.ip(), m.port());
            String who = host.map(Host::name).orElse(m.ip() + ":" + m.port() + " (not in the inventory)");
            notes.add("sentinel: " + who + " is primary " + m.describe() + " with " + m.replicas() + " replica"
                    + (m.replicas() == 1 ? "" : "s") + "; failover through SENTINEL FAILOVER");
            host.map(h -> byName.get(h.name()))
                    .filter(s -> s.role() == NodeRole.REPLICA)
                    .ifPresent(s -> notes.add("sentinel names " + s.host() + " primary of '" + m.name()
                            + "' but it reports role:slave (a failover in progress?)"));
        }
        for (NodeState s : states) {
            Optional<Host> host = inventory.host(s.host());
            boolean monitored = host.isPresent()
                    && masters.stream()
                            .anyMatch(m -> m.at(
                                            host.get().redis().address(),
                                            host.get().redis().port())
                                    || m.at(
                                            host.get().address(),
                                            host.get().redis().port()));
            if (s.role() == NodeRole.PRIMARY && !s.replicas().isEmpty() && !monitored) {
                notes.add(s.host() + " is a primary no sentinel monitors: failover through FAILOVER");
            }
        }
        return notes;
    }

    /** The cluster's shape, from the first host's {@code CLUSTER NODES}. */
    private List<String> clusterNotes(List<Host> hosts) {
        List<String> notes = new ArrayList<>();
        List<ClusterNode> nodes = hosts.stream()
                .map(h -> clusterNodes.get(h.name()))
                .filter(n -> n != null && !n.isEmpty())
                .findFirst()
                .orElse(List.of());
        long primaries =
                nodes.stream().filter(n -> n.primary() && n.slotCount() > 0).count();
        int slots = nodes.stream()
                .filter(ClusterNode::primary)
                .mapToInt(ClusterNode::slotCount)
                .sum();
        notes.add("cluster: " + Counts.of(nodes.size(), "node") + ", " + Counts.of(primaries, "primary") + " serving "
                + slots + " of 16384 slots; failover through CLUSTER FAILOVER on a replica");
        for (ClusterNode n : nodes) {
            String who = hostAt(n.ip(), n.port()).map(Host::name).orElse(n.address() + " (not in the inventory)");
            if (n.failing()) {
                notes.add("cluster: " + who + " is flagged " + String.join(",", n.flags()));
            }
            boolean hasReplica = nodes.stream()
                    .anyMatch(r -> r.primaryId().filter(n.id()::equals).isPresent() && !r.failing());
            if (n.primary() && n.slotCount() > 0 && !hasReplica) {
                notes.add("cluster: " + who + " serves slots " + n.slotText()
                        + " with no replica: those slots are unavailable while it restarts");
            }
        }
        List<String> outside = hosts.stream()
                .filter(h -> !clusterNodes.containsKey(h.name()))
                .map(Host::name)
                .toList();
        if (!outside.isEmpty() && !nodes.isEmpty()) {
            notes.add("cluster mode off or Redis down on " + String.join(", ", outside));
        }
        return notes;
    }

    private Optional<Host> hostAt(String address, int port) {
        return inventory.hosts().stream()
                .filter(h -> h.redis().port() == port
                        && (h.redis().address().equals(address) || h.address().equals(address)))
                .findFirst();
    }
}
