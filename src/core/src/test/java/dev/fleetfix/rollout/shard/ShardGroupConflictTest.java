package dev.fleetfix.rollout.shard;

import static dev.fleetfix.rollout.shard.ShardAssignmentTest.host;
import static dev.fleetfix.rollout.shard.ShardAssignmentTest.primary;
import static dev.fleetfix.rollout.shard.ShardAssignmentTest.replica;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.fleetfix.InputException;
import dev.fleetfix.inventory.Host;
import dev.fleetfix.inventory.Inventory;
import dev.fleetfix.redis.topology.NodeState;
import dev.fleetfix.redis.topology.Topology;
import dev.fleetfix.redis.topology.TopologyDiscovery;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * {@code --shard K/N} where the inventory's {@code redis_group} and replication disagree: no shard is cut (exit 2),
 * naming the hosts, their groups and what replication says; never a cut by one of them.
 */
class ShardGroupConflictTest {
    private static final String A_ADDR = "10.0.0.2";

    private final Host a = host("a", 1, Map.of("redis_group", "cache-a"));
    private final Host b = host("b", 2, Map.of("redis_group", "cache-b"));

    /** What each asked host's Redis says; a host missing from {@code says} does not answer. */
    private static TopologyDiscovery says(List<Host> inventory, Map<String, Map<String, String>> says) {
        return asked -> {
            List<NodeState> states = new ArrayList<>();
            for (Host h : asked) {
                Map<String, String> info = says.get(h.name());
                states.add(
                        info == null
                                ? NodeState.unreachable(h.name(), "connection refused")
                                : NodeState.fromInfo(h.name(), info));
            }
            return Topology.of(inventory, states, Topology.Source.REPLICATION, List.of());
        };
    }

    private static Inventory inventory(List<Host> hosts) {
        return new Inventory(
                Optional.empty(),
                hosts,
                Map.of("all", hosts.stream().map(Host::name).toList()));
    }

    /** The finding: b replicates from a, the inventory names them apart; each shard took one and said "kept whole". */
    @Test
    void aReplicaNamedInAnotherRedisGroupThanItsPrimaryStopsEveryShardBeforeAnyHostIsTouched() {
        List<Host> hosts = List.of(a, b);
        TopologyDiscovery discovery = says(hosts, Map.of("a", primary(), "b", replica(A_ADDR)));
        assertThatThrownBy(() -> Sharding.discovering(discovery).plan(inventory(hosts), hosts, 2))
                .isInstanceOf(Sharding.Disagreement.class)
                .isInstanceOf(InputException.class) // exit 2
                .hasMessage("refused to cut shards: the inventory's redis_group and replication disagree: a"
                        + " (redis_group cache-a), b (redis_group cache-b) are one replication group: b replicates"
                        + " from a. A shard must hold a replication group whole; fix redis_group in the inventory"
                        + " (one value for the whole group, or none to let replication decide)");
    }

    @Test
    void aChainThroughAHostTheInventoryDoesNotGroupIsOneGroupToo() {
        Host u = host("u", 3, Map.of());
        List<Host> hosts = List.of(a, u, b);
        TopologyDiscovery discovery =
                says(hosts, Map.of("a", primary(), "u", replica(A_ADDR), "b", replica(u.address())));
        assertThatThrownBy(() -> Sharding.discovering(discovery).plan(inventory(hosts), hosts, 3))
                .isInstanceOf(Sharding.Disagreement.class)
                .hasMessageContaining("u replicates from a")
                .hasMessageContaining("b replicates from u");
    }

    @Test
    void replicasOfOnePrimaryOutsideTheInventoryAreOneGroup() {
        List<Host> hosts = List.of(a, b);
        TopologyDiscovery discovery = says(hosts, Map.of("a", replica("10.9.9.9"), "b", replica("10.9.9.9")));
        assertThatThrownBy(() -> Sharding.discovering(discovery).plan(inventory(hosts), hosts, 2))
                .isInstanceOf(Sharding.Disagreement.class)
                .hasMessageContaining("a replicates from 10.9.9.9:6379; b replicates from 10.9.9.9:6379");
    }

    @Test
    void clusterNodesNamedInTwoGroupsDisagree() {
        List<Host> hosts = List.of(a, b);
        TopologyDiscovery standalone = says(hosts, Map.of("a", primary(), "b", primary()));
        TopologyDiscovery cluster = asked -> standalone.discover(asked).withClusterNodes(Set.of("a", "b"));
        assertThatThrownBy(() -> Sharding.discovering(cluster).plan(inventory(hosts), hosts, 2))
                .isInstanceOf(Sharding.Disagreement.class)
                .hasMessageContaining("are nodes of one Redis Cluster");
    }

    @Test
    void whereTheyAgreeOrReplicationCannotSayTheShardsAreCutAsBefore() {
        Host a2 = host("a2", 5, Map.of("redis_group", "cache-a"));
        Host u = host("u", 3, Map.of());
        Host lone = host("lone", 4, Map.of("redis_group", "cache-a"));
        List<Host> hosts = List.of(a, a2, u, lone, b);
        // a2 and u replicate from a: one group, named once; lone shares a's name without a link (the inventory may
        // group what replication cannot show); b does not answer and keeps its named group
        TopologyDiscovery discovery =
                says(hosts, Map.of("a", primary(), "a2", replica(A_ADDR), "u", replica(A_ADDR), "lone", primary()));
        ShardPlan plan = Sharding.discovering(discovery).plan(inventory(hosts), hosts, 2);
        assertThat(plan.groups())
                .extracting(ReplicationGroup::hosts)
                .containsExactlyInAnyOrder(List.of("a", "a2", "u", "lone"), List.of("b"));
    }

    @Test
    void theConflictItselfIsAPureFunctionOfTheSelectionAndReplication() {
        List<Host> hosts = List.of(a, b);
        Topology t = says(hosts, Map.of("a", primary(), "b", replica(A_ADDR))).discover(hosts);
        assertThat(GroupConflict.of(hosts, t))
                .containsExactly(
                        new GroupConflict(Map.of("a", "cache-a", "b", "cache-b"), List.of("b replicates from a")));
        // without b in the selection there is nothing to split
        assertThat(GroupConflict.of(List.of(a), t)).isEmpty();
    }
}
