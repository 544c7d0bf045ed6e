package dev.fleetfix.steps.restart.handover;

import dev.fleetfix.redis.ClusterNode;
import dev.fleetfix.redis.RedisException;
import dev.fleetfix.redis.RedisNode;
import dev.fleetfix.redis.ReplyFields;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Keys a cluster node serves. In cluster mode a primary refuses (MOVED) a key whose hash slot
 * another node serves, so fleetfix's own keys carry a hash tag ({@code {n}}) chosen until
 * {@code CLUSTER KEYSLOT} lands in one of the node's slots. Outside cluster mode every key will do.
 */
public final class ClusterKeys {
    /** Tags tried before giving up; a node serving a third of the slots needs three on average. */
    private static final int TRIES = 256;

    private ClusterKeys() {}

    /**
     * Empty when every primary that would vote in this node's election (a primary serving slots)
     * has a cluster bus link open <em>to</em> it: a vote travels on the voter's own link, and a
     * voter whose link to a node that has just restarted is not back yet grants its vote into the
     * void. Else the voters without one. Empty outside cluster mode, and on Redis before 7.0 (no
     * {@code CLUSTER LINKS}), where only resending helps.
     */
    static Optional<String> votersWithoutLink(RedisNode node) {
        if (!clustered(node)) {
            return Optional.empty();
        }
        Object links;
        try {
            links = node.command("CLUSTER", "LINKS");
        } catch (RedisException e) {
            return Optional.empty();
        }
        Set<String> inbound = new HashSet<>();
        if (links instanceof List<?> entries) {
            for (Object entry : entries) {
                Map<String, String> f = ReplyFields.of(entry);
                if ("from".equals(f.get("direction"))) {
                    inbound.add(f.get("node"));
                }
            }
        }
        List<String> missing = ClusterNode.parseAll(node.command("CLUSTER", "NODES")).stream()
                .filter(n -> !n.myself() && n.primary() && n.slotCount() > 0)
                .filter(n -> !inbound.contains(n.id()))
                .map(ClusterNode::address)
                .toList();
        return missing.isEmpty() ? Optional.empty() : Optional.of("no link yet from " + String.join(", ", missing));
    }

    /** Whether the node runs in cluster mode. */
    static boolean clustered(RedisNode node) {
        return "1".equals(node.info("cluster").get("cluster_enabled"));
    }

    /**
     * {@code prefix} itself outside cluster mode; in cluster mode {@code prefix:{n}} for the first
     * {@code n} whose slot {@code node} serves as a primary. Empty when it serves none (a replica,
     * or a primary without slots).
     */
    public static Optional<String> servedBy(RedisNode node, String prefix) {
        if (!clustered(node)) {
            return Optional.of(prefix);
        }
        Optional<ClusterNode> me = ClusterNode.parseAll(node.command("CLUSTER", "NODES")).stream()
                .filter(ClusterNode::myself)
                .findFirst();
        if (me.isEmpty() || !me.get().primary() || me.get().slotCount() == 0) {
            return Optional.empty();
        }
        for (int i = 0; i < TRIES; i++) {
            String key = prefix + ":{" + i + "}";
            Object slot = node.command("CLUSTER", "KEYSLOT", key);
            if (slot instanceof Number n && me.get().serves(n.longValue())) {
                return Optional.of(key);
            }
        }
        return Optional.empty();
    }
}
