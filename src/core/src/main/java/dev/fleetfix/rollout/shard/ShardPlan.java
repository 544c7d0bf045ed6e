package dev.fleetfix.rollout.shard;

import dev.fleetfix.inventory.Host;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * A selection cut into shards.
 *
 * @param selected the hosts cut, in inventory order
 * @param groups their replication groups
 * @param assignment which groups each shard takes
 * @param discovered whether the hosts' Redis was asked; false when the groups come from the inventory only
 */
public record ShardPlan(
        List<Host> selected, List<ReplicationGroup> groups, ShardAssignment assignment, boolean discovered) {
    public ShardPlan {
        selected = List.copyOf(selected);
        groups = List.copyOf(groups);
        Objects.requireNonNull(assignment, "assignment");
    }

    /** The hosts of shard {@code index} (1-based), in inventory order. */
    public List<Host> hosts(int index) {
        Set<String> names = new HashSet<>(assignment.hosts(index));
        return selected.stream().filter(h -> names.contains(h.name())).toList();
    }

    /** The hosts of {@code shard}. */
    public List<Host> hosts(ShardSpec shard) {
        return hosts(shard.index());
    }
}
