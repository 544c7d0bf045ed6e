package dev.fleetfix.rollout.shard;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Which replication groups each of N shards takes: a pure function of the groups, so every shard process (and
 * {@code fleetfix inventory --shards N}) computes the same cut from the same inventory.
 *
 * <p>Groups go largest first (ties by their smallest host name, never by inventory order) into the shard with fewest
 * hosts so far (ties by the lower index). A group is never split, and the shards' sizes differ by at most the largest
 * group's size: each group lands on a shard that had the fewest hosts, so it can raise the largest only to the
 * smallest plus its own size.
 *
 * @param shards the groups of shard 1 to N, in the order placed
 */
public record ShardAssignment(List<List<ReplicationGroup>> shards) {
    public ShardAssignment {
        shards = shards.stream().map(List::copyOf).toList();
    }

    /** Cuts {@code groups} into {@code count} shards. */
    public static ShardAssignment of(List<ReplicationGroup> groups, int count) {
        if (count < 1) {
            throw new IllegalArgumentException("shard count must be at least 1, was " + count);
        }
        List<ReplicationGroup> order = new ArrayList<>(groups);
        order.sort(Comparator.comparingInt(ReplicationGroup::size).reversed().thenComparing(ReplicationGroup::key));
        List<List<ReplicationGroup>> shards = new ArrayList<>();
        int[] load = new int[count];
        for (int i = 0; i < count; i++) {
            shards.add(new ArrayList<>());
        }
        for (ReplicationGroup group : order) {
            int least = 0;
            for (int i = 1; i < count; i++) {
                if (load[i] < load[least]) {
                    least = i;
                }
            }
            shards.get(least).add(group);
            load[least] += group.size();
        }
        return new ShardAssignment(shards);
    }

    public int count() {
        return shards.size();
    }

    /** The groups of shard {@code index} (1-based). */
    public List<ReplicationGroup> groups(int index) {
        return shards.get(index - 1);
    }

    /** The host names of shard {@code index} (1-based). */
    public List<String> hosts(int index) {
        return groups(index).stream().flatMap(g -> g.hosts().stream()).toList();
    }

    /** The size of the largest group: the bound on how far apart two shards' sizes may be. */
    public int largestGroup() {
        return shards.stream()
                .flatMap(List::stream)
                .mapToInt(ReplicationGroup::size)
                .max()
                .orElse(0);
    }
}
