package dev.fleetfix.steps.restart.handover;

import dev.fleetfix.redis.topology.ReplicaLink;
import java.util.Optional;

/** A route that hands the primary role to one named replica ({@code FAILOVER TO}, {@code CLUSTER FAILOVER}, by hand). */
sealed interface ToReplica extends Handover permits FailoverRoute, ClusterRoute, ManualRoute {
    /** The replica that becomes primary. */
    ReplicaLink to();

    @Override
    default Optional<ReplicaLink> target() {
        return Optional.of(to());
    }

    @Override
    default String newPrimaryName() {
        return to().host().orElse(to().ip());
    }
}
