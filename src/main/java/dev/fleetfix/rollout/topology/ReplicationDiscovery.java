package dev.fleetfix.rollout.topology;

import dev.fleetfix.inventory.Host;
import dev.fleetfix.inventory.Inventory;
import dev.fleetfix.redis.RedisConnector;
import dev.fleetfix.redis.RedisException;
import dev.fleetfix.redis.RedisNode;
import dev.fleetfix.rollout.Forks;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Topology from {@code INFO replication} of every host, asked in parallel. Replicas and primaries
 * are matched against the whole inventory, so a primary outside the play is still known by name.
 * Notes when the inventory names sentinels or a host runs in cluster mode: this build orders and
 * fails over by INFO replication only.
 */
public final class ReplicationDiscovery implements TopologyDiscovery {
    private final Inventory inventory;
    private final RedisConnector redis;
    private final Duration timeout;
    private final int forks;
    private final Set<String> clusterEnabled = ConcurrentHashMap.newKeySet();

    public ReplicationDiscovery(Inventory inventory, RedisConnector redis, Duration timeout, int forks) {
        this.inventory = inventory;
        this.redis = redis;
        this.timeout = timeout;
        this.forks = forks;
    }

    @Override
    public Topology discover(List<Host> hosts) {
        List<String> notes = new ArrayList<>();
        Topology.Source source = Topology.Source.REPLICATION;
        if (namesSentinels(inventory)) {
            source = Topology.Source.SENTINEL;
            notes.add("the inventory names sentinels: this build reads roles from INFO replication and does"
                    + " not fail over through Sentinel (failover: auto refuses on Sentinel-managed primaries)");
        }
        List<Forks.Outcome<Host, NodeState>> outcomes = Forks.run(hosts, forks, this::ask);
        List<NodeState> states = new ArrayList<>();
        boolean cluster = false;
        for (Forks.Outcome<Host, NodeState> o : outcomes) {
            NodeState s = o.value()
                    .orElseGet(() -> NodeState.unreachable(
                            o.input().name(),
                            o.error().map(Throwable::getMessage).orElse("?")));
            states.add(s);
        }
        for (Host h : hosts) {
            cluster |= clusterEnabled.contains(h.name());
        }
        if (cluster) {
            source = Topology.Source.CLUSTER;
            notes.add("cluster mode: CLUSTER NODES and CLUSTER FAILOVER are not handled by this build;"
                    + " ordered by INFO replication");
        }
        return Topology.of(inventory.hosts(), states, source, notes);
    }

    private NodeState ask(Host host) {
        try (RedisNode node = redis.connect(host, timeout)) {
            Map<String, String> replication = node.info("replication");
            if ("1".equals(node.info("cluster").get("cluster_enabled"))) {
                clusterEnabled.add(host.name());
            }
            return NodeState.fromInfo(host.name(), replication);
        } catch (RedisException e) {
            return NodeState.unreachable(host.name(), e.getMessage());
        }
    }

    /** A {@code sentinel} group, or a {@code redis_sentinel} variable on some host. */
    static boolean namesSentinels(Inventory inventory) {
        return inventory.groups().containsKey("sentinel")
                || inventory.groups().containsKey("sentinels")
                || inventory.hosts().stream().anyMatch(h -> h.vars().get("redis_sentinel") != null);
    }
}
