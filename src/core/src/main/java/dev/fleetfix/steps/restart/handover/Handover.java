package dev.fleetfix.steps.restart.handover;

import dev.fleetfix.health.GateTarget;
import dev.fleetfix.redis.topology.ReplicaLink;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * How a primary hands its role to a replica before its restart, and takes it back after it when asked. One
 * implementation per route, each chosen by {@link RouteChoice} (the only class that names them); the restart's
 * sequence knows this interface alone. Each move ends when the old primary reports {@code role:slave} and the new one
 * accepts a write under {@code fleetfix:} (in cluster mode, a key in a slot it serves).
 */
public sealed interface Handover permits ToReplica, SentinelRoute {

    /** Who moves the primary role: the identity of a route, in results and in the host's record. */
    enum Route {
        /** {@code FAILOVER TO ip port} on the primary (Redis 6.2+, no Sentinel, no cluster). */
        FAILOVER,
        /** {@code SENTINEL FAILOVER name}: Sentinel promotes a replica and demotes the primary. */
        SENTINEL,
        /** {@code CLUSTER FAILOVER} on the replica: it takes over its primary's slots. */
        CLUSTER,
        /**
         * By hand, for Redis without FAILOVER (3.0 to 6.0): CLIENT PAUSE on the primary, wait for the replica's
         * offset, SLAVEOF NO ONE on it, SLAVEOF on the old primary.
         */
        MANUAL;

        /** The route as one word, as the step's facts and the host's record write it: {@code failover}. */
        public String word() {
            return name().toLowerCase(Locale.ROOT);
        }

        /** The route {@link #word()} names; empty for a word no route has. */
        public static Optional<Route> ofWord(String word) {
            for (Route r : values()) {
                if (r.word().equals(word)) {
                    return Optional.of(r);
                }
            }
            return Optional.empty();
        }
    }

    Route route();

    /** The replica that becomes primary; empty on a route that lets another pick it (Sentinel). */
    Optional<ReplicaLink> target();

    /**
     * How the host's record names where the role went: the target's inventory name (else its address), or the
     * primary's name as Sentinel monitors it.
     */
    String newPrimaryName();

    /**
     * The labels ({@code NeededCommands}) of what this route sends to the primary's own Redis and its user, asked
     * before the restart begins; none by default, for a route that talks to replicas or Sentinels, whose users are
     * their own.
     */
    default List<String> primaryCommands() {
        return List.of();
    }

    /** "FAILOVER TO lab-2 (127.0.0.12:6379)", "SENTINEL FAILOVER lab", "CLUSTER FAILOVER on lab-2 (...)". */
    String describe();

    /** Hands this host's primary role over. */
    Outcome away(RoleMoves moves) throws InterruptedException;

    /** After the old primary's restart: makes it primary again; empty when done, else why not. */
    Optional<String> back(RoleMoves moves, Moved moved) throws InterruptedException;

    /** The primary role moved; to whom. */
    record Moved(String newPrimary, Optional<GateTarget.Connect> connect) {}

    /** The outcome of a move: where the role went, or why it did not. */
    record Outcome(Optional<Moved> moved, Optional<String> error) {
        public static Outcome failed(String why) {
            return new Outcome(Optional.empty(), Optional.of(why));
        }

        /** Nothing to move (the restart needs no failover), or it was saved instead. */
        public static Outcome stayed() {
            return new Outcome(Optional.empty(), Optional.empty());
        }

        public static Outcome done(Moved moved) {
            return new Outcome(Optional.of(moved), Optional.empty());
        }
    }
}
