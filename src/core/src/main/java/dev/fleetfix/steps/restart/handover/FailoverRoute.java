package dev.fleetfix.steps.restart.handover;

import dev.fleetfix.health.GateTarget;
import dev.fleetfix.redis.topology.ReplicaLink;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * {@code FAILOVER TO host port TIMEOUT ms} (Redis 6.2+): Redis pauses writes on the primary, waits until the target
 * has every write and swaps roles; past the timeout it aborts and the primary stays primary. Both config files are
 * then rewritten (CONFIG REWRITE) so that a restart keeps the new roles. The failback is the same command the other
 * way.
 */
record FailoverRoute(ReplicaLink to) implements ToReplica {
    FailoverRoute {
        Objects.requireNonNull(to, "to");
    }

    @Override
    public Route route() {
        return Route.FAILOVER;
    }

    /** FAILOVER, and the CONFIG REWRITE that keeps the swapped roles. */
    @Override
    public List<String> primaryCommands() {
        return List.of("failover", "config|rewrite");
    }

    @Override
    public String describe() {
        return "FAILOVER TO " + to.describe();
    }

    @Override
    public Outcome away(RoleMoves moves) throws InterruptedException {
        var ctx = moves.ctx();
        Optional<String> sent = RoleMoves.send(ctx.redis(), moves.self(), "FAILOVER", failoverTo(to, moves.timeout()));
        if (sent.isPresent()) {
            return Outcome.failed(sent.get());
        }
        GateTarget.Connect connect = moves.open(to);
        return RoleMoves.moved(
                moves.settle(ctx.redis(), moves.self(), Optional.of(connect), to.describe(), true), to, connect);
    }

    @Override
    public Optional<String> back(RoleMoves moves, Moved moved) throws InterruptedException {
        String self = moves.self();
        GateTarget.Connect current = current(moved);
        Optional<String> notOnline = untilListedOnline(moves, current, moved.newPrimary());
        if (notOnline.isPresent()) {
            return notOnline;
        }
        Optional<ReplicaLink> me = moves.selfAsListedBy(current, moved.newPrimary());
        if (me.isEmpty()) {
            return Optional.of(moved.newPrimary() + " does not list " + self + " as a replica");
        }
        Optional<String> sent =
                RoleMoves.send(current, moved.newPrimary(), "FAILOVER", failoverTo(me.get(), moves.timeout()));
        return sent.isPresent()
                ? sent
                : moves.settle(
                        current, moved.newPrimary(), Optional.of(moves.ctx().redis()), self, true);
    }

    static GateTarget.Connect current(Moved moved) {
        return moved.connect().orElseThrow(() -> new IllegalStateException("no connection to " + moved.newPrimary()));
    }

    /**
     * The restarted node says its link is up once it has loaded the primary's data; the primary calls it online only
     * at its first acknowledgement, up to a second later, and FAILOVER refuses a target that is not online ("ERR
     * FAILOVER target replica is not online"): wait for the primary's own word.
     */
    private static Optional<String> untilListedOnline(RoleMoves moves, GateTarget.Connect current, String primary)
            throws InterruptedException {
        String self = moves.self();
        if (moves.selfAsListedBy(current, primary).isEmpty()) {
            return Optional.of(primary + " does not list " + self + " as a replica");
        }
        return moves.poll().until(primary + " to list " + self + " as an online replica", moves.timeout(), () -> {
            Optional<ReplicaLink> listed = moves.selfAsListedBy(current, primary);
            if (listed.isEmpty()) {
                return Optional.of(self + " not listed");
            }
            ReplicaLink link = listed.get();
            return link.online(RouteChoice.MAX_LAG_SECONDS)
                    ? Optional.empty()
                    : Optional.of("state=" + link.state() + " lag=" + link.lag() + "s");
        });
    }

    private static String[] failoverTo(ReplicaLink target, Duration timeout) {
        return new String[] {
            "TO", target.ip(), Integer.toString(target.port()), "TIMEOUT", Long.toString(timeout.toMillis())
        };
    }
}
