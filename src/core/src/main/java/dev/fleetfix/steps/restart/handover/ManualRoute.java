package dev.fleetfix.steps.restart.handover;

import dev.fleetfix.health.GateTarget;
import dev.fleetfix.redis.topology.ReplicaLink;
import java.util.Objects;
import java.util.Optional;

/**
 * The hand-over by hand, for Redis without FAILOVER (3.0 to 6.0), or with {@code failover: manual}: {@link ManualMove}
 * to the replica, and the same back.
 */
record ManualRoute(ReplicaLink to) implements ToReplica {
    ManualRoute {
        Objects.requireNonNull(to, "to");
    }

    @Override
    public Route route() {
        return Route.MANUAL;
    }

    @Override
    public String describe() {
        return "hand-over by hand to " + to.describe();
    }

    @Override
    public Outcome away(RoleMoves moves) throws InterruptedException {
        GateTarget.Connect connect = moves.open(to);
        return RoleMoves.moved(
                new ManualMove(moves).move(moves.ctx().redis(), moves.self(), to, connect, to.describe()), to, connect);
    }

    @Override
    public Optional<String> back(RoleMoves moves, Moved moved) throws InterruptedException {
        GateTarget.Connect current = FailoverRoute.current(moved);
        Optional<ReplicaLink> me = moves.selfAsListedBy(current, moved.newPrimary());
        if (me.isEmpty()) {
            return Optional.of(moved.newPrimary() + " does not list " + moves.self() + " as a replica");
        }
        return new ManualMove(moves)
                .move(current, moved.newPrimary(), me.get(), moves.ctx().redis(), moves.self());
    }
}
