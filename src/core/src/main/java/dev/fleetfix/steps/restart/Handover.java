package dev.fleetfix.steps.restart;

import dev.fleetfix.redis.topology.ReplicaLink;
import dev.fleetfix.redis.topology.SentinelMaster;
import java.util.Objects;
import java.util.Optional;

/**
 * How a primary hands its role to a replica before its restart.
 *
 * @param route who moves the role
 * @param target the replica that becomes primary; Sentinel picks its own, so empty on that route
 * @param sentinel the primary as Sentinel monitors it, on the Sentinel route
 */
public record Handover(Route route, Optional<ReplicaLink> target, Optional<SentinelMaster> sentinel) {

    /** Who moves the primary role. */
    public enum Route {
        /** {@code FAILOVER TO ip port} on the primary (Redis 6.2+, no Sentinel, no cluster). */
        FAILOVER,
        /** {@code SENTINEL FAILOVER name}: Sentinel promotes a replica and demotes the primary. */
        SENTINEL,
        /** {@code CLUSTER FAILOVER} on the replica: it takes over its primary's slots. */
        CLUSTER,
        /**
         * By hand, for Redis without FAILOVER (3.0 to 6.0): CLIENT PAUSE on the primary, wait for the
         * replica's offset, SLAVEOF NO ONE on it, SLAVEOF on the old primary ({@link ManualRoute}).
         */
        MANUAL
    }

    public Handover {
        Objects.requireNonNull(route, "route");
        Objects.requireNonNull(target, "target");
        Objects.requireNonNull(sentinel, "sentinel");
        if (route == Route.SENTINEL && sentinel.isEmpty()) {
            throw new IllegalArgumentException("sentinel: required on the SENTINEL route");
        }
        if (route != Route.SENTINEL && target.isEmpty()) {
            throw new IllegalArgumentException("target: required on the " + route + " route");
        }
    }

    public static Handover failover(ReplicaLink target) {
        return new Handover(Route.FAILOVER, Optional.of(target), Optional.empty());
    }

    public static Handover cluster(ReplicaLink target) {
        return new Handover(Route.CLUSTER, Optional.of(target), Optional.empty());
    }

    public static Handover manual(ReplicaLink target) {
        return new Handover(Route.MANUAL, Optional.of(target), Optional.empty());
    }

    public static Handover sentinel(SentinelMaster master) {
        return new Handover(Route.SENTINEL, Optional.empty(), Optional.of(master));
    }

    /** "FAILOVER TO lab-2 (127.0.0.12:6379)", "SENTINEL FAILOVER lab", "CLUSTER FAILOVER on lab-2 (...)". */
    public String describe() {
        return switch (route) {
            case FAILOVER -> "FAILOVER TO " + target.orElseThrow().describe();
            case SENTINEL -> "SENTINEL FAILOVER " + sentinel.orElseThrow().name();
            case CLUSTER -> "CLUSTER FAILOVER on " + target.orElseThrow().describe();
            case MANUAL -> "hand-over by hand to " + target.orElseThrow().describe();
        };
    }
}
