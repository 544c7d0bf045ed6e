package dev.fleetfix.steps.restart.handover;

import dev.fleetfix.health.GateTarget;
import dev.fleetfix.redis.RedisException;
import dev.fleetfix.redis.RedisNode;
import dev.fleetfix.redis.topology.ReplicaLink;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * {@code CLUSTER FAILOVER} on the replica: it waits for the primary's last writes, takes its slots, and the old
 * primary follows it; the cluster saves its own nodes.conf. The failback is the same command on the old primary.
 */
record ClusterRoute(ReplicaLink to) implements ToReplica {
    /** Longer than Redis's own manual failover timeout (5 s), after which it gives up silently. */
    private static final Duration CLUSTER_FAILOVER_RETRY = Duration.ofSeconds(6);

    ClusterRoute {
        Objects.requireNonNull(to, "to");
    }

    @Override
    public Route route() {
        return Route.CLUSTER;
    }

    @Override
    public String describe() {
        return "CLUSTER FAILOVER on " + to.describe();
    }

    @Override
    public Outcome away(RoleMoves moves) throws InterruptedException {
        GateTarget.Connect connect = moves.open(to);
        Optional<String> taken = takeover(moves, connect, to.describe());
        if (taken.isPresent()) {
            return Outcome.failed(taken.get());
        }
        return RoleMoves.moved(
                moves.settle(moves.ctx().redis(), moves.self(), Optional.of(connect), to.describe(), false),
                to,
                connect);
    }

    @Override
    public Optional<String> back(RoleMoves moves, Moved moved) throws InterruptedException {
        GateTarget.Connect current = FailoverRoute.current(moved);
        Optional<String> taken = takeover(moves, moves.ctx().redis(), moves.self());
        return taken.isPresent()
                ? taken
                : moves.settle(
                        current, moved.newPrimary(), Optional.of(moves.ctx().redis()), moves.self(), false);
    }

    /**
     * {@code CLUSTER FAILOVER} on a replica until it reports {@code role:master}. Right after a
     * node's restart the other primaries have not reconnected to it: they grant their votes but
     * cannot deliver them, the election gets no majority and Redis drops it after 5 s. So the
     * command waits until every voting primary has a link to the replica, and is sent again (after
     * Redis's own retry delay, twice the node timeout) while the step's timeout allows.
     */
    private static Optional<String> takeover(RoleMoves moves, GateTarget.Connect replica, String name)
            throws InterruptedException {
        Optional<String> linked = moves.poll().until("the voting primaries to link to " + name, moves.timeout(), () -> {
            try (RedisNode n = replica.open(RoleMoves.CONNECT)) {
                return ClusterKeys.votersWithoutLink(n);
            }
        });
        if (linked.isPresent()) {
            return Optional.of(
                    "CLUSTER FAILOVER on " + name + ": the voting primaries cannot reach it: " + linked.get());
        }
        Duration every = retry(replica);
        Instant[] sent = new Instant[1];
        int[] attempts = new int[1];
        Optional<String> promoted = moves.poll()
                .until(name + " to become primary (CLUSTER FAILOVER)", moves.timeout(), () -> {
                    try (RedisNode n = replica.open(RoleMoves.CONNECT)) {
                        String role = n.info("replication").getOrDefault("role", "?");
                        if (role.equals("master")) {
                            return Optional.empty();
                        }
                        Instant now = moves.ctx().clock().instant();
                        if (sent[0] == null || Duration.between(sent[0], now).compareTo(every) >= 0) {
                            n.command("CLUSTER", "FAILOVER");
                            sent[0] = now;
                            attempts[0]++;
                        }
                        return Optional.of(name + " role:" + role + " after " + attempts[0] + " CLUSTER FAILOVER");
                    }
                });
        return promoted.map(why -> "CLUSTER FAILOVER on " + name + ": " + why);
    }

    /** Redis's own retry delay for a manual failover: twice the node timeout. */
    private static Duration retry(GateTarget.Connect replica) {
        try (RedisNode n = replica.open(RoleMoves.CONNECT)) {
            long nodeTimeout = n.configGet("cluster-node-timeout")
                    .map(v -> Long.parseLong(v.strip()))
                    .orElse(15_000L);
            return Duration.ofMillis(Math.max(CLUSTER_FAILOVER_RETRY.toMillis(), 2 * nodeTimeout + 1000));
        } catch (RedisException | NumberFormatException e) {
            return Duration.ofSeconds(31);
        }
    }
}
