package dev.fleetfix.steps.restart.handover;

import dev.fleetfix.health.GateTarget;
import dev.fleetfix.redis.topology.ReplicaLink;
import java.util.List;
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

    /**
     * What {@link ManualMove} sends the primary, as a Redis that can be asked gets it (ACL DRYRUN, 7.0+): the guard's
     * CONFIG GET and SET, the MULTI that holds it with CLIENT PAUSE, REPLICAOF to follow the new primary, CLIENT
     * UNPAUSE, and the CONFIG REWRITE that keeps its new role. Refused halfway, the pause or the REPLICAOF would leave
     * two primaries or a guarded one.
     */
    @Override
    public List<String> primaryCommands() {
        return List.of(
                "config|get",
                "config|set",
                "multi",
                "exec",
                "client|pause",
                "replicaof",
                "client|unpause",
                "config|rewrite");
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
