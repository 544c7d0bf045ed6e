package dev.fleetfix.report.console;

import dev.fleetfix.report.HostText;
import dev.fleetfix.rollout.shard.ReplicationGroup;
import dev.fleetfix.rollout.shard.ShardPlan;
import dev.fleetfix.rollout.shard.ShardSpec;
import java.util.List;

/** What {@code fleetfix inventory --shards N} prints, and the line a {@code --shard K/N} run starts with. */
public final class ShardListing {
    private ShardListing() {}

    /** Every shard with its groups, one group a line, and where the groups came from. */
    public static String render(ShardPlan plan) {
        StringBuilder out = new StringBuilder();
        int count = plan.assignment().count();
        out.append("# ")
                .append(plural(plan.selected().size(), "host"))
                .append(" in ")
                .append(plural(plan.groups().size(), "replication group"))
                .append(", cut into ")
                .append(plural(count, "shard"))
                .append(" (sizes differ by at most the largest group, ")
                .append(plan.assignment().largestGroup())
                .append(")\n");
        out.append(
                plan.discovered()
                        ? "# groups from the inventory (redis_group, group sentinel) and, for the other hosts, from their"
                                + " Redis (INFO replication, CLUSTER NODES)\n"
                        : "# groups from the inventory only (redis_group, group sentinel): a host it does not group is placed"
                                + " alone; --check asks each host's Redis, as --shard K/N does\n");
        for (int k = 1; k <= count; k++) {
            List<ReplicationGroup> groups = plan.assignment().groups(k);
            out.append("shard ")
                    .append(k)
                    .append('/')
                    .append(count)
                    .append(": ")
                    .append(plural(plan.hosts(k).size(), "host"))
                    .append('\n');
            for (ReplicationGroup g : groups) {
                out.append("  ")
                        .append(HostText.clean(String.join(", ", g.hosts())))
                        .append("  (")
                        .append(HostText.clean(g.why()))
                        .append(")\n");
            }
        }
        return out.toString();
    }

    /** "shard 2/3: 3 of 8 hosts (lab-4, lab-5, lab-6)": what a run tells on stderr before it starts. */
    public static String notice(ShardPlan plan, ShardSpec shard) {
        List<String> names =
                plan.hosts(shard).stream().map(h -> HostText.clean(h.name())).toList();
        String line = "shard " + shard + ": " + names.size() + " of "
                + plural(plan.selected().size(), "host")
                + (names.isEmpty() ? "" : " (" + String.join(", ", names) + ")") + ", replication groups kept whole";
        if (!plan.discovered()) {
            line += " (groups from the inventory only)";
        }
        return line;
    }

    private static String plural(int n, String word) {
        return n + " " + word + (n == 1 ? "" : "s");
    }
}
