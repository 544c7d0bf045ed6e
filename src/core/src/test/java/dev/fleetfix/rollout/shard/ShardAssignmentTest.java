package dev.fleetfix.rollout.shard;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.fleetfix.InputException;
import dev.fleetfix.inventory.Connection;
import dev.fleetfix.inventory.Host;
import dev.fleetfix.inventory.Inventory;
import dev.fleetfix.inventory.RedisAuth;
import dev.fleetfix.inventory.RedisEndpoint;
import dev.fleetfix.playbook.BatchSize;
import dev.fleetfix.redis.topology.NodeState;
import dev.fleetfix.redis.topology.Topology;
import dev.fleetfix.redis.topology.TopologyDiscovery;
import dev.fleetfix.rollout.plan.BatchPlan;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * {@code --shard K/N} over random inventories (a seeded generator: a failure names its seed): replication groups
 * found from {@code redis_group}, from what the hosts' Redis reports, from a Sentinel set, and lone hosts.
 */
class ShardAssignmentTest {
    private static final int INVENTORIES = 300;

    /** A generated inventory and the groups it was generated with: what sharding must keep whole. */
    private record Fleet(List<Host> hosts, List<Set<String>> truth, TopologyDiscovery discovery) {
        Inventory inventory() {
            Map<String, List<String>> groups =
                    Map.of("all", hosts.stream().map(Host::name).toList());
            return new Inventory(Optional.empty(), hosts, groups);
        }

        int largest() {
            return truth.stream().mapToInt(Set::size).max().orElse(0);
        }
    }

    @Test
    void shardsAreDisjointCoverTheSelectionKeepGroupsWholeAndAreBalancedWithinTheLargestGroup() {
        for (long seed = 1; seed <= INVENTORIES; seed++) {
            Random random = new Random(seed);
            Fleet fleet = fleet(random);
            int count = 1 + random.nextInt(8);
            ShardPlan plan = Sharding.discovering(fleet.discovery()).plan(fleet.inventory(), fleet.hosts(), count);
            String at = "seed " + seed + ", " + fleet.hosts().size() + " hosts, " + count + " shards";

            List<String> all = new ArrayList<>();
            Map<String, Integer> shardOf = new HashMap<>();
            List<Integer> sizes = new ArrayList<>();
            for (int k = 1; k <= count; k++) {
                List<String> names = names(plan.hosts(k));
                all.addAll(names);
                sizes.add(names.size());
                for (String name : names) {
                    shardOf.put(name, k);
                }
            }
            assertThat(all).as(at + ": every host once").hasSameSizeAs(new HashSet<>(all));
            assertThat(all)
                    .as(at + ": the selection covered")
                    .containsExactlyInAnyOrderElementsOf(names(fleet.hosts()));
            for (Set<String> group : fleet.truth()) {
                assertThat(group.stream().map(shardOf::get).distinct())
                        .as(at + ": group " + group + " in one shard")
                        .hasSize(1);
            }
            assertThat(Collections.max(sizes) - Collections.min(sizes))
                    .as(at + ": sizes " + sizes + " within the largest group (" + fleet.largest() + ")")
                    .isLessThanOrEqualTo(fleet.largest());
        }
    }

    @Test
    void theSameInventoryGivesTheSameShardsWhateverItsHostOrder() {
        for (long seed = 1; seed <= INVENTORIES; seed++) {
            Random random = new Random(seed);
            Fleet fleet = fleet(random);
            int count = 1 + random.nextInt(8);
            ShardPlan once = Sharding.discovering(fleet.discovery()).plan(fleet.inventory(), fleet.hosts(), count);
            ShardPlan again = Sharding.discovering(fleet.discovery()).plan(fleet.inventory(), fleet.hosts(), count);
            List<Host> shuffled = new ArrayList<>(fleet.hosts());
            Collections.shuffle(shuffled, random);
            ShardPlan reordered = Sharding.discovering(fleet.discovery()).plan(fleet.inventory(), shuffled, count);
            for (int k = 1; k <= count; k++) {
                assertThat(names(again.hosts(k)))
                        .as("seed " + seed + " shard " + k)
                        .isEqualTo(names(once.hosts(k)));
                assertThat(names(reordered.hosts(k)))
                        .as("seed " + seed + " shard " + k + " of the shuffled inventory")
                        .containsExactlyInAnyOrderElementsOf(names(once.hosts(k)));
            }
        }
    }

    /**
     * Shards that start together: a group lies in one shard, so the hosts of a group that all shards have down at one
     * time are those of one batch of one run, which its batch plan bounds (serial, max_unavailable).
     */
    @Test
    void shardsRunningTogetherNeverHoldMoreOfAGroupDownThanOneRunsBatch() {
        for (long seed = 1; seed <= INVENTORIES; seed++) {
            Random random = new Random(seed);
            Fleet fleet = fleet(random);
            int count = 1 + random.nextInt(8);
            int serial = 1 + random.nextInt(3);
            ShardPlan plan = Sharding.discovering(fleet.discovery()).plan(fleet.inventory(), fleet.hosts(), count);
            for (Set<String> group : fleet.truth()) {
                // the most hosts of this group down at once over all shards: every shard's worst batch, summed
                int downAtOnce = 0;
                for (int k = 1; k <= count; k++) {
                    BatchPlan batches = BatchPlan.of(plan.hosts(k), List.of(new BatchSize.Count(serial)));
                    downAtOnce += batches.batches().stream()
                            .mapToInt(b -> (int) b.stream()
                                    .filter(h -> group.contains(h.name()))
                                    .count())
                            .max()
                            .orElse(0);
                }
                assertThat(downAtOnce)
                        .as("seed " + seed + ": group " + group + " down at once, serial " + serial)
                        .isLessThanOrEqualTo(serial);
            }
        }
    }

    @Test
    void aHostWhoseRedisDidNotAnswerIsNamedAndNoShardIsCut() {
        Host a = host("a", 1, Map.of());
        Host b = host("b", 2, Map.of());
        Host c = host("c", 3, Map.of("redis_group", "x"));
        TopologyDiscovery discovery = hosts -> Topology.of(
                List.of(a, b, c),
                List.of(NodeState.fromInfo("a", primary()), NodeState.unreachable("b", "connection refused")),
                Topology.Source.REPLICATION,
                List.of());
        Inventory inventory = new Inventory(Optional.empty(), List.of(a, b, c), Map.of("all", List.of("a", "b", "c")));
        assertThatThrownBy(() -> Sharding.discovering(discovery).plan(inventory, List.of(a, b, c), 2))
                .isInstanceOf(Sharding.Refused.class)
                .hasMessageContaining("replication group of b (connection refused) is unknown")
                .hasMessageContaining("--limit 'all:!b'");
        // from the inventory only, nothing is asked: b is a group of its own
        ShardPlan offline = Sharding.fromInventory().plan(inventory, List.of(a, b, c), 2);
        assertThat(offline.discovered()).isFalse();
        assertThat(offline.groups())
                .extracting(ReplicationGroup::why)
                .containsExactly("alone", "alone", "redis_group x");
    }

    @Test
    void largestGroupsFirstIntoTheLeastLoadedShardTiesByNameAndIndex() {
        List<ReplicationGroup> groups = List.of(
                new ReplicationGroup(List.of("z1"), "alone"),
                new ReplicationGroup(List.of("m2", "m1", "m3"), "replication"),
                new ReplicationGroup(List.of("b1", "b2"), "replication"),
                new ReplicationGroup(List.of("a1", "a2"), "redis_group a"),
                new ReplicationGroup(List.of("c1"), "alone"));
        ShardAssignment shards = ShardAssignment.of(groups, 2);
        // m (3) -> 1; a (2) -> 2; b (2) -> 2 (2 < 3); c1 -> 1 (3 < 4); z1 -> 1 (4 = 4: the lower index)
        assertThat(shards.hosts(1)).containsExactly("m2", "m1", "m3", "c1", "z1");
        assertThat(shards.hosts(2)).containsExactly("a1", "a2", "b1", "b2");
        assertThat(shards.largestGroup()).isEqualTo(3);
    }

    @Test
    void shardSpecReadsKOfN() {
        assertThat(ShardSpec.parse("2/3")).isEqualTo(new ShardSpec(2, 3));
        assertThatThrownBy(() -> ShardSpec.parse("0/3"))
                .isInstanceOf(InputException.class)
                .hasMessage("--shard 0/3: K must be 1..3");
        assertThatThrownBy(() -> ShardSpec.parse("4/3")).hasMessage("--shard 4/3: K must be 1..3");
        assertThatThrownBy(() -> ShardSpec.parse("2"))
                .hasMessage("--shard 2: expected K/N, such as 2/3 (the second of three shards)");
        assertThatThrownBy(() -> ShardSpec.parse("a/b")).hasMessageContaining("whole numbers");
    }

    /**
     * 1 to 60 hosts: groups named by redis_group, primaries with replicas (found by the discovery), one Sentinel set
     * on one of the groups, and lone hosts; names shuffled so that inventory order says nothing.
     */
    private static Fleet fleet(Random random) {
        int hostCount = 1 + random.nextInt(60);
        List<String> names = new ArrayList<>();
        for (int i = 0; i < hostCount; i++) {
            names.add("redis-" + Integer.toString(i * 7919 % 10007, 36) + "-" + i);
        }
        Collections.shuffle(names, random);
        List<Set<String>> truth = new ArrayList<>();
        Map<String, Map<String, Object>> vars = new LinkedHashMap<>();
        Map<String, Integer> number = new HashMap<>();
        Map<String, String> primaryOf = new HashMap<>();
        Set<String> sentinels = new HashSet<>();
        int at = 0;
        int kind = 0;
        while (at < hostCount) {
            int size = Math.min(hostCount - at, 1 + random.nextInt(6));
            List<String> members = names.subList(at, at + size);
            kind = random.nextInt(3);
            for (String m : members) {
                number.put(m, number.size() + 1);
                vars.put(m, kind == 0 ? Map.of("redis_group", "g" + at) : Map.of());
            }
            if (kind == 1) {
                members.subList(1, size).forEach(r -> primaryOf.put(r, members.get(0)));
            }
            if (kind == 2 && size > 1) {
                // lone hosts: each its own group
                members.forEach(m -> truth.add(Set.of(m)));
            } else {
                truth.add(new HashSet<>(members));
            }
            if (sentinels.isEmpty() && kind == 1 && random.nextBoolean()) {
                sentinels.addAll(members);
            }
            at += size;
        }
        List<Host> hosts = new ArrayList<>();
        for (String name : names) {
            Host h = host(name, number.get(name), vars.get(name));
            if (sentinels.contains(name)) {
                h = h.toBuilder()
                        .sentinel(Optional.of(new RedisEndpoint(h.address(), 26379, RedisAuth.NONE, false, "sentinel")))
                        .build();
            }
            hosts.add(h);
        }
        Map<String, Host> byName = hosts.stream().collect(Collectors.toMap(Host::name, h -> h));
        TopologyDiscovery discovery = asked -> {
            List<NodeState> states = new ArrayList<>();
            for (Host h : asked) {
                String primary = primaryOf.get(h.name());
                if (primary != null) {
                    states.add(NodeState.fromInfo(
                            h.name(), replica(byName.get(primary).address())));
                } else {
                    List<String> links = primaryOf.entrySet().stream()
                            .filter(e -> e.getValue().equals(h.name()))
                            .map(e ->
                                    "ip=" + byName.get(e.getKey()).address() + ",port=6379,state=online,offset=1,lag=0")
                            .toList();
                    states.add(NodeState.fromInfo(h.name(), primary(links.toArray(String[]::new))));
                }
            }
            return Topology.of(hosts, states, Topology.Source.REPLICATION, List.of());
        };
        return new Fleet(hosts, truth, discovery);
    }

    private static List<String> names(List<Host> hosts) {
        return hosts.stream().map(Host::name).toList();
    }

    static Host host(String name, int n, Map<String, Object> vars) {
        String address = "10.0." + (n / 250) + "." + (n % 250 + 1);
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
                vars,
                Optional.empty());
    }

    static Map<String, String> primary(String... replicas) {
        Map<String, String> info = new LinkedHashMap<>(Map.of("role", "master", "master_repl_offset", "1"));
        for (int i = 0; i < replicas.length; i++) {
            info.put("slave" + i, replicas[i]);
        }
        return info;
    }

    static Map<String, String> replica(String primaryAddress) {
        return Map.of(
                "role", "slave",
                "master_host", primaryAddress,
                "master_port", "6379",
                "master_link_status", "up",
                "slave_repl_offset", "1");
    }
}
