package dev.fleetfix.rollout.plan;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fleetfix.inventory.Connection;
import dev.fleetfix.inventory.Host;
import dev.fleetfix.inventory.RedisAuth;
import dev.fleetfix.inventory.RedisEndpoint;
import dev.fleetfix.playbook.BatchSize;
import dev.fleetfix.playbook.Location;
import dev.fleetfix.playbook.Play;
import dev.fleetfix.playbook.Step;
import dev.fleetfix.redis.topology.NodeState;
import dev.fleetfix.redis.topology.ReplicaLink;
import dev.fleetfix.redis.topology.Topology;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class TopologyTest {
    static Host host(String name, int n) {
        String address = "10.0.0." + n;
        return new Host(
                name,
                address,
                22,
                Optional.empty(),
                Optional.empty(),
                false,
                Optional.empty(),
                Optional.empty(),
                Connection.SSH,
                new RedisEndpoint(address, 6379, RedisAuth.NONE, false, "redis-server"),
                List.of("all"),
                Map.of(),
                Optional.empty());
    }

    static Map<String, String> primary(String... replicas) {
        Map<String, String> info = new LinkedHashMap<>(Map.of("role", "master", "master_repl_offset", "500"));
        info.put("connected_slaves", Integer.toString(replicas.length));
        for (int i = 0; i < replicas.length; i++) {
            info.put("slave" + i, replicas[i]);
        }
        return info;
    }

    static Map<String, String> replica(String primaryIp, String link) {
        return Map.of(
                "role", "slave",
                "master_host", primaryIp,
                "master_port", "6379",
                "master_link_status", link,
                "slave_repl_offset", "500");
    }

    static Play play(Object serial, Map<String, Object> restartArgs) {
        List<BatchSize> sizes = new ArrayList<>();
        if (serial instanceof Integer n) {
            sizes.add(new BatchSize.Count(n));
        }
        Location at = new Location(Path.of("p.yaml"), 1, 1);
        return new Play(
                "p",
                "all",
                sizes,
                0,
                Map.of(),
                Optional.empty(),
                List.of(new Step("restart_redis", "restart_redis", restartArgs, Optional.empty(), at)),
                at);
    }

    private final Host p = host("p", 1);
    private final Host r1 = host("r1", 2);
    private final Host r2 = host("r2", 3);
    private final Host solo = host("solo", 4);
    private final List<Host> all = List.of(p, r1, r2, solo);

    private Topology topology(boolean r2LinkUp) {
        return Topology.of(
                all,
                List.of(
                        NodeState.fromInfo(
                                "p",
                                primary(
                                        "ip=10.0.0.2,port=6379,state=online,offset=500,lag=0",
                                        "ip=10.0.0.3,port=6379,state=online,offset=500,lag=1")),
                        NodeState.fromInfo("r1", replica("10.0.0.1", "up")),
                        NodeState.fromInfo("r2", replica("10.0.0.1", r2LinkUp ? "up" : "down")),
                        NodeState.fromInfo("solo", primary())),
                Topology.Source.REPLICATION,
                List.of());
    }

    private static List<List<String>> names(BatchPlan plan) {
        return plan.batches().stream()
                .map(b -> b.stream().map(Host::name).toList())
                .toList();
    }

    @Test
    void matchesReplicasToInventoryHostsByAddressAndPort() {
        Topology t = topology(true);
        assertThat(t.replicasOf("p")).containsExactly("r1", "r2");
        assertThat(t.primaryOf("r1")).contains("p");
        assertThat(t.inSyncReplicasOf("p")).containsExactly("r1", "r2");
        assertThat(t.replicasOf("solo")).isEmpty();
        assertThat(t.describe()).containsExactly("p primary of r1, r2 (in sync)");
    }

    @Test
    void aReplicaWithItsLinkDownIsNotInSync() {
        Topology t = topology(false);
        assertThat(t.inSyncReplicasOf("p")).containsExactly("r1");
        assertThat(t.describe()).containsExactly("p primary of r1, r2 (in sync: r1)");
    }

    @Test
    void replicasComeBeforeTheirPrimaryOtherwiseInventoryOrder() {
        assertThat(topology(true).order(all)).extracting(Host::name).containsExactly("r1", "r2", "p", "solo");
    }

    @Test
    void aPrimaryLeavesTheBatchHoldingAllItsInSyncReplicas() {
        BatchPlan plan = TopologyOrdering.plan(topology(true), all, play(null, Map.of()));
        assertThat(names(plan)).containsExactly(List.of("r1", "r2", "solo"), List.of("p"));
        assertThat(plan.notes())
                .contains("topology: p primary of r1, r2 (in sync)")
                .anyMatch(n -> n.startsWith("split: p moved to a batch after r1, r2"));
    }

    @Test
    void aPrimaryAndItsOnlyInSyncReplicaAreSplitWhenSerialPutsThemTogether() {
        Topology t = topology(false); // only r1 is in sync
        BatchPlan plan = TopologyOrdering.plan(t, all, play(2, Map.of()));
        // order r1, r2, p, solo; serial 2 -> [r1, r2] [p, solo]: r1 is not with p, no split
        assertThat(names(plan)).containsExactly(List.of("r1", "r2"), List.of("p", "solo"));

        BatchPlan three = TopologyOrdering.plan(t, List.of(p, r1, solo), play(2, Map.of()));
        // order r1, p, solo; serial 2 -> [r1, p] [solo]: p is split from its only in-sync replica
        assertThat(names(three)).containsExactly(List.of("r1"), List.of("p"), List.of("solo"));
        assertThat(three.notes()).anyMatch(n -> n.contains("r1, its only in-sync replica"));
    }

    @Test
    void aHostOfAConnectionFleetfixLacksIsNotAskedForItsReplicationButKeepsItsPlace() {
        Host windows = new Host(
                "w1",
                "10.0.0.9",
                22,
                Optional.empty(),
                Optional.empty(),
                false,
                Optional.empty(),
                Optional.empty(),
                Connection.UNSUPPORTED,
                new RedisEndpoint("10.0.0.9", 6379, RedisAuth.NONE, false, "redis-server"),
                List.of("all"),
                Map.of("ansible_connection", "winrm"),
                Optional.empty());
        List<List<String>> asked = new ArrayList<>();
        TopologyOrdering ordering = new TopologyOrdering(hosts -> {
            asked.add(hosts.stream().map(Host::name).toList());
            return Topology.off();
        });

        BatchPlan plan = ordering.batches(play(null, Map.of()), List.of(p, windows, solo));

        assertThat(asked).containsExactly(List.of("p", "solo"));
        assertThat(names(plan)).containsExactly(List.of("p", "w1", "solo"));
    }

    @Test
    void aPlayWithoutRestartOrWithTopologyOffContactsNoHost() {
        TopologyOrdering ordering = new TopologyOrdering(hosts -> {
            throw new AssertionError("no discovery expected");
        });
        Play off = play(null, Map.of("topology", "off"));
        assertThat(names(ordering.batches(off, all))).containsExactly(List.of("p", "r1", "r2", "solo"));
        Location at = new Location(Path.of("p.yaml"), 1, 1);
        Play audit = new Play(
                "a",
                "all",
                List.of(),
                0,
                Map.of(),
                Optional.empty(),
                List.of(new Step("audit", "audit", Map.of(), Optional.empty(), at)),
                at);
        assertThat(names(ordering.batches(audit, all))).containsExactly(List.of("p", "r1", "r2", "solo"));
    }

    @Test
    void unreachableHostsAndOutsideReplicasAreNoted() {
        Topology t = Topology.of(
                all,
                List.of(
                        NodeState.fromInfo("p", primary("ip=10.9.9.9,port=6379,state=online,offset=500,lag=0")),
                        NodeState.unreachable("r1", "connection refused")),
                Topology.Source.REPLICATION,
                List.of());
        assertThat(t.notes())
                .contains("p has replica 10.9.9.9:6379, not in the inventory", "r1: role unknown (connection refused)");
        assertThat(t.inSyncReplicasOf("p")).isEmpty();
    }

    @Test
    void parsesReplicaLines() {
        assertThat(ReplicaLink.parse("ip=10.0.0.2,port=6380,state=wait_bgsave,offset=12,lag=3"))
                .contains(new ReplicaLink("10.0.0.2", 6380, "wait_bgsave", 12, 3, Optional.empty()));
        assertThat(ReplicaLink.parse("garbage")).isEmpty();
    }
}
