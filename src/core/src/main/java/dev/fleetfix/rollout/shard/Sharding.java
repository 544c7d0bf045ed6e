package dev.fleetfix.rollout.shard;

import dev.fleetfix.InputException;
import dev.fleetfix.inventory.Connection;
import dev.fleetfix.inventory.Host;
import dev.fleetfix.inventory.Inventory;
import dev.fleetfix.redis.topology.Topology;
import dev.fleetfix.redis.topology.TopologyDiscovery;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Cuts a selection into shards that keep replication groups whole ({@code --shard K/N}, {@code fleetfix inventory
 * --shards N}). With a discovery, every host is asked for its replication (read-only, {@code INFO replication}): a
 * host whose group the inventory does not name ({@code redis_group}) joins the group replication gives it, and where
 * the inventory and replication disagree ({@link GroupConflict}) no shard is cut. Without one, the hosts the
 * inventory does not group are groups of their own.
 */
public final class Sharding {
    private final Optional<TopologyDiscovery> discovery;

    private Sharding(Optional<TopologyDiscovery> discovery) {
        this.discovery = discovery;
    }

    /** From the inventory only: connects to nothing. */
    public static Sharding fromInventory() {
        return new Sharding(Optional.empty());
    }

    /** From the inventory, and from the hosts' Redis where it does not say. */
    public static Sharding discovering(TopologyDiscovery discovery) {
        return new Sharding(Optional.of(discovery));
    }

    /**
     * The assignment of {@code selected} to {@code count} shards.
     *
     * @throws Refused when a host's group is unknown (its Redis did not answer and the inventory names no group)
     * @throws Disagreement when replication puts hosts of different {@code redis_group}s in one group
     */
    public ShardPlan plan(Inventory inventory, List<Host> selected, int count) {
        Set<String> sentinels = inventory.sentinels().stream().map(Host::name).collect(Collectors.toSet());
        Optional<Topology> topology = discovery.map(d -> d.discover(toAsk(selected)));
        List<GroupConflict> conflicts =
                topology.map(t -> GroupConflict.of(selected, t)).orElse(List.of());
        if (!conflicts.isEmpty()) {
            throw new Disagreement(conflicts);
        }
        ReplicationGroups groups = ReplicationGroups.of(selected, sentinels, topology);
        if (!groups.unplaced().isEmpty()) {
            throw new Refused(groups.unplaced());
        }
        return new ShardPlan(
                selected, groups.groups(), ShardAssignment.of(groups.groups(), count), discovery.isPresent());
    }

    /**
     * Hosts fleetfix can reach (a winrm host is skipped by every run): those the inventory groups too, so that a
     * {@code redis_group} replication contradicts is seen. One that does not answer keeps the group the inventory names.
     */
    private static List<Host> toAsk(List<Host> selected) {
        return selected.stream()
                .filter(h -> h.connection() != Connection.UNSUPPORTED)
                .toList();
    }

    /**
     * No shard is cut: replication holds together hosts the inventory names in different {@code redis_group}s, and
     * fleetfix cuts by neither alone. Bad input (exit 2), found before any host is touched.
     */
    public static final class Disagreement extends InputException {
        Disagreement(List<GroupConflict> conflicts) {
            super("refused to cut shards: the inventory's " + ReplicationGroups.GROUP_VAR + " and replication"
                    + " disagree: "
                    + conflicts.stream().map(GroupConflict::describe).collect(Collectors.joining("; and "))
                    + ". A shard must hold a replication group whole; fix " + ReplicationGroups.GROUP_VAR
                    + " in the inventory (one value for the whole group, or none to let replication decide)");
        }
    }

    /** No shard is cut: a host's replication group is unknown, and fleetfix does not guess it. */
    public static final class Refused extends RuntimeException {
        private final Map<String, String> hosts;

        Refused(Map<String, String> hosts) {
            super(message(hosts));
            this.hosts = Map.copyOf(hosts);
        }

        /** The hosts whose group is unknown, with why. */
        public Map<String, String> hosts() {
            return hosts;
        }

        private static String message(Map<String, String> hosts) {
            String named = hosts.entrySet().stream()
                    .map(e -> e.getKey() + " (" + e.getValue() + ")")
                    .collect(Collectors.joining(", "));
            String first = hosts.keySet().iterator().next();
            return "refused to cut shards: the replication group of " + named + " is unknown, and a shard must hold"
                    + " a group whole; fleetfix does not guess. Bring its Redis back, name its group in the inventory"
                    + " (" + ReplicationGroups.GROUP_VAR + ": NAME), or leave it out (--limit 'all:!" + first + "')";
        }
    }
}
