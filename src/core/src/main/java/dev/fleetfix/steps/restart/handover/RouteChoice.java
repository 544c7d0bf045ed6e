package dev.fleetfix.steps.restart.handover;

import dev.fleetfix.redis.RedisServer;
import dev.fleetfix.redis.topology.ReplicaLink;
import dev.fleetfix.redis.topology.SentinelMaster;
import dev.fleetfix.steps.restart.handover.Handover.Route;
import java.util.Objects;
import java.util.Optional;

/**
 * Which route hands a primary's role over, a pure function of what its Redis and its Sentinels said just before;
 * the one class that names the {@link Handover} implementations. Called once a failover is wanted and an in-sync
 * replica in the inventory is there ({@code RestartDecision} decides that):
 *
 * <ul>
 *   <li>in cluster mode, {@code CLUSTER FAILOVER} on the replica;
 *   <li>when a Sentinel monitors it, {@code SENTINEL FAILOVER}; refused when Sentinel reports trouble, or when the
 *       inventory names Sentinels but none answered (whether one manages it is unknown);
 *   <li>else {@code FAILOVER} (Redis 6.2+), which needs CONFIG REWRITE to keep the new roles;
 *   <li>else by hand (Redis 3.0 to 6.0, or {@code failover: manual}); not 2.8, which cannot pause writes.
 * </ul>
 */
public final class RouteChoice {
    /** Replicas whose last acknowledgement is older than this are not failover targets. */
    public static final long MAX_LAG_SECONDS = 5;

    private RouteChoice() {}

    /**
     * What the route depends on.
     *
     * @param target the first in-sync replica in the inventory
     * @param online how many replicas are in sync
     * @param cluster the primary runs in cluster mode
     * @param sentinel the primary as a Sentinel monitors it
     * @param sentinelUnknown why the inventory's Sentinels could not be asked
     * @param manualAsked {@code failover: manual}
     * @param version its {@code redis_version}
     * @param commands the commands that version has; empty when it could not be read
     * @param configAnswered CONFIG GET answered, so CONFIG REWRITE can keep swapped roles
     */
    public record Facts(
            ReplicaLink target,
            int online,
            boolean cluster,
            Optional<SentinelMaster> sentinel,
            Optional<String> sentinelUnknown,
            boolean manualAsked,
            String version,
            Optional<RedisServer> commands,
            boolean configAnswered) {
        public Facts {
            Objects.requireNonNull(target, "target");
            Objects.requireNonNull(sentinel, "sentinel");
            Objects.requireNonNull(sentinelUnknown, "sentinelUnknown");
            Objects.requireNonNull(version, "version");
            Objects.requireNonNull(commands, "commands");
        }
    }

    /** What was chosen: a route, a refusal, or no route (the primary is then saved, or refused, as it persists). */
    public sealed interface Choice permits Chosen, Refused, NoRoute {}

    /** The hand-over to make, and why, in one line for the report. */
    public record Chosen(Handover handover, String reason) implements Choice {}

    /** No restart at all: a failover is wanted but not safe now. */
    public record Refused(String reason) implements Choice {}

    /** No route this primary supports; {@code situation} says why ("primary, ..."). */
    public record NoRoute(String situation) implements Choice {}

    public static Choice choose(Facts f) {
        ReplicaLink first = f.target();
        String lag = first.describe() + " (online, lag " + first.lag() + "s)";
        if (f.cluster()) {
            return new Chosen(new ClusterRoute(first), "cluster primary: CLUSTER FAILOVER on " + lag + " first");
        }
        if (f.sentinelUnknown().isPresent()) {
            return new Refused("refused: primary with a replica, and the inventory names sentinels but "
                    + f.sentinelUnknown().get()
                    + ": whether Sentinel manages it is unknown, so no failover is safe");
        }
        if (f.sentinel().isPresent()) {
            SentinelMaster master = f.sentinel().get();
            if (master.troubled()) {
                return new Refused(
                        "refused: Sentinel reports primary " + master.describe() + "; wait until Sentinel is done");
            }
            return new Chosen(
                    new SentinelRoute(master),
                    "primary " + master.describe() + ": SENTINEL FAILOVER first (Sentinel picks the replica; "
                            + f.online() + " online)");
        }
        if (f.manualAsked() || !f.commands().map(RedisServer::hasFailover).orElse(false)) {
            return byHand(f, lag);
        }
        if (!f.configAnswered()) {
            // Without CONFIG REWRITE the swapped roles live in memory only: the old primary would
            // restart as a primary beside the new one.
            return new NoRoute(
                    "primary, and FAILOVER needs CONFIG REWRITE to keep the new roles but CONFIG GET was refused");
        }
        return new Chosen(new FailoverRoute(first), "primary: fail over to " + lag + " first");
    }

    /**
     * Without FAILOVER (before 6.2, or {@code failover: manual}) the role is handed over by hand;
     * that needs CLIENT PAUSE (3.0) to stop writes while the replica catches up. Redis 2.8 has none:
     * writes would go on into the old primary and be lost when it follows the new one.
     */
    private static Choice byHand(Facts f, String lag) {
        if (f.commands().isEmpty()) {
            return new NoRoute("primary, its Redis version could not be read (redis_version:" + f.version()
                    + "), so which hand-over it supports is unknown; no failover");
        }
        if (!f.commands().get().hasClientPause()) {
            return new NoRoute("primary, " + cannotPause(f.version()));
        }
        String why = f.manualAsked() ? "failover: manual" : "Redis " + f.version() + " has no FAILOVER (6.2+)";
        return new Chosen(
                new ManualRoute(f.target()),
                "primary, " + why + ": hand over by hand to " + lag
                        + " first (CLIENT PAUSE, wait for its offset, SLAVEOF NO ONE)");
    }

    /** Why a Redis without FAILOVER and CLIENT PAUSE (2.8) has no route. */
    public static String cannotPause(String version) {
        return "Redis " + version + " has neither FAILOVER (6.2+) nor CLIENT PAUSE (3.0+) to stop writes during a"
                + " hand-over; no failover";
    }

    /**
     * The hand-over a run that died journalled, to fail back after it: only the FAILOVER and manual routes, whose
     * new primary is the journalled replica; empty on the others (Sentinel picks its own primary; a cluster's
     * failback is not resumed).
     *
     * @param target the journalled new primary, as its old primary listed it
     */
    public static Optional<Handover> resumed(Route route, ReplicaLink target) {
        return switch (route) {
            case FAILOVER -> Optional.of(new FailoverRoute(target));
            case MANUAL -> Optional.of(new ManualRoute(target));
            case SENTINEL, CLUSTER -> Optional.empty();
        };
    }
}
