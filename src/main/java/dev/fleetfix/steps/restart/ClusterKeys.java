package dev.fleetfix.steps.restart;

import dev.fleetfix.redis.ClusterNode;
import dev.fleetfix.redis.RedisNode;
import java.util.Optional;

/**
 * Keys a cluster node serves. In cluster mode a primary refuses (MOVED) a key whose hash slot
 * another node serves, so fleetfix's own keys carry a hash tag ({@code {n}}) chosen until
 * {@code CLUSTER KEYSLOT} lands in one of the node's slots. Outside cluster mode every key will do.
 */
final class ClusterKeys {
    /** Tags tried before giving up; a node serving a third of the slots needs three on average. */
    private static final int TRIES = 256;

    private ClusterKeys() {}

    /** Whether the node runs in cluster mode. */
    static boolean clustered(RedisNode node) {
        return "1".equals(node.info("cluster").get("cluster_enabled"));
    }

    /**
     * {@code prefix} itself outside cluster mode; in cluster mode {@code prefix:{n}} for the first
     * {@code n} whose slot {@code node} serves as a primary. Empty when it serves none (a replica,
     * or a primary without slots).
     */
    static Optional<String> servedBy(RedisNode node, String prefix) {
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
