package dev.fleetfix.steps.restart;

import dev.fleetfix.redis.topology.NodeRole;
import dev.fleetfix.redis.topology.ReplicaLink;
import dev.fleetfix.steps.restart.handover.Handover;
import dev.fleetfix.steps.restart.handover.RouteChoice;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * How to restart one host without losing data, decided from what its Redis (and its Sentinels)
 * reported just before.
 *
 * <ul>
 *   <li>A replica restarts in place: it resyncs from its primary. A replica whose primary link is
 *       down may hold the only copy: it is saved first, or refused without persistence.
 *   <li>A primary with an online replica in the inventory hands its role over first ({@link Handover}), by the
 *       route {@link RouteChoice} picks. Not with {@code failover: never}.
 *   <li>Otherwise a primary with persistence is saved (BGSAVE, or BGREWRITEAOF with AOF) and
 *       restarted in place.
 *   <li>A primary without persistence and no replica to fail over to is refused: a restart would
 *       lose its data set, and its replicas would resync the empty one. {@code allow_data_loss:
 *       true} restarts it anyway.
 *   <li>When a fact this needs could not be read (whether save points are set, with CONFIG renamed
 *       away or refused by ACL and no config file that settles it), the restart is refused naming
 *       that fact, as is a Redis that did not answer but may run (credentials refused, timeout).
 *       Only a Redis known not to run is restarted as having nothing in memory.
 * </ul>
 *
 * @param kind what to do
 * @param reason why, in one line for the report
 * @param handover how the role moves, for a failover
 */
public record RestartDecision(Kind kind, String reason, Optional<Handover> handover) {
    /** Replicas whose last acknowledgement is older than this are not failover targets. */
    public static final long MAX_LAG_SECONDS = RouteChoice.MAX_LAG_SECONDS;

    /** What to do before the restart. */
    public enum Kind {
        /** Restart as is (a replica, Redis down, or data loss allowed). */
        RESTART,
        /** BGSAVE (or BGREWRITEAOF with AOF), wait for it to finish OK, then restart. */
        SAVE_THEN_RESTART,
        /** Hand the primary role to a replica, restart the old primary as a replica. */
        FAILOVER_THEN_RESTART,
        /** Do not restart: the data would be lost, or the failover cannot be done safely. */
        REFUSE
    }

    public RestartDecision {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(reason, "reason");
        Objects.requireNonNull(handover, "handover");
        if ((kind == Kind.FAILOVER_THEN_RESTART) != handover.isPresent()) {
            throw new IllegalArgumentException("handover: present exactly for a failover, kind was " + kind);
        }
    }

    static RestartDecision of(Kind kind, String reason) {
        return new RestartDecision(kind, reason, Optional.empty());
    }

    /** Decides for a host no Sentinel watches. */
    public static RestartDecision decide(RedisSnapshot snapshot, RestartOptions options) {
        return decide(snapshot, options, SentinelStatus.NONE);
    }

    /**
     * Decides for one host. {@code snapshot.replicas()} must name the inventory host of each
     * replica fleetfix can reach ({@link ReplicaLink#host()}); only those are failover targets,
     * since the new primary's writes are checked.
     */
    public static RestartDecision decide(RedisSnapshot snapshot, RestartOptions options, SentinelStatus sentinel) {
        if (!snapshot.answered()) {
            return notAnswering(snapshot, options);
        }
        if (snapshot.role() == NodeRole.REPLICA) {
            if (snapshot.replication().linkUp()) {
                return of(Kind.RESTART, "replica: resyncs from its primary");
            }
            return unsafe(snapshot, options, "replica with its primary link down may hold the only copy of the data");
        }
        List<ReplicaLink> online = snapshot.replicas().stream()
                .filter(r -> r.online(MAX_LAG_SECONDS))
                .filter(r -> r.host().isPresent())
                .toList();
        String why = whyNoFailover(snapshot, options, sentinel);
        if (!why.isEmpty()) {
            return unsafe(snapshot, options, "primary, " + why);
        }
        RouteChoice.Choice choice = RouteChoice.choose(new RouteChoice.Facts(
                online.get(0),
                online.size(),
                snapshot.cluster(),
                sentinel.master(),
                sentinel.unknown(),
                options.manualFailover(),
                snapshot.version(),
                snapshot.commands(),
                snapshot.persistence().configAnswered()));
        if (choice instanceof RouteChoice.Chosen chosen) {
            return new RestartDecision(Kind.FAILOVER_THEN_RESTART, chosen.reason(), Optional.of(chosen.handover()));
        }
        if (choice instanceof RouteChoice.Refused refused) {
            return of(Kind.REFUSE, refused.reason());
        }
        return unsafe(snapshot, options, ((RouteChoice.NoRoute) choice).situation());
    }

    /**
     * Whether the only route left is the hand-over by hand and the server cannot pause writes for it
     * (2.8): then that is why there is no failover, whatever else is true of its replicas.
     */
    private static boolean onlyByHandWithoutPause(RedisSnapshot s, RestartOptions options, SentinelStatus sentinel) {
        return !s.cluster()
                && sentinel.master().isEmpty()
                && sentinel.unknown().isEmpty()
                && (options.manualFailover() || !s.hasFailoverCommand())
                && s.commands().filter(c -> !c.hasClientPause()).isPresent();
    }

    private static String whyNoFailover(RedisSnapshot s, RestartOptions options, SentinelStatus sentinel) {
        if (s.replicas().isEmpty()) {
            return "no replica";
        }
        List<ReplicaLink> online =
                s.replicas().stream().filter(r -> r.online(MAX_LAG_SECONDS)).toList();
        if (online.isEmpty()) {
            return "no replica in sync ("
                    + String.join(
                            ", ",
                            s.replicas().stream()
                                    .map(r -> r.describe() + " " + r.state() + " lag " + r.lag() + "s")
                                    .toList())
                    + ")";
        }
        if (online.stream().noneMatch(r -> r.host().isPresent())) {
            if (onlyByHandWithoutPause(s, options, sentinel)) {
                // 2.8 lists every replica at the address it connects from, and has no setting to announce
                // another: advice to set one would be wrong, and with any address no hand-over is safe.
                return RouteChoice.cannotPause(s.version());
            }
            return "its in-sync replicas are listed by addresses not in the inventory ("
                    + online.get(0).describe()
                    + "; a replica that connects from another address needs replica-announce-ip (5.0+;"
                    + " slave-announce-ip from 4.0) or bind-source-addr (7.0+), else the old primary would be"
                    + " pointed there)";
        }
        if (!options.topology() || !options.failover()) {
            return "failover off (" + (options.topology() ? "failover: never" : "topology: off") + ")";
        }
        return "";
    }

    /**
     * Only a Redis known not to run has nothing in memory. One that refused our credentials, timed
     * out or listens on another address runs, and may hold the only copy of its data. What to fix is
     * how fleetfix reaches it, not whether data may be lost: a refusal never points at {@code
     * allow_data_loss}. A Redis that refuses the credentials is refused even with it: nothing after
     * the restart (data check, health gates) could talk to it either. One that did not answer in time
     * (busy, wedged) is restarted with {@code allow_data_loss: true}, as documented.
     */
    private static RestartDecision notAnswering(RedisSnapshot s, RestartOptions options) {
        if (s.down()) {
            return of(Kind.RESTART, "Redis is not running (" + s.why() + "): nothing in memory to lose");
        }
        if (s.credentialsRefused()) {
            return of(Kind.REFUSE, "refused: redis auth failed (" + s.why() + "): check redis_password / redis_user");
        }
        if (s.serverFull()) {
            // it runs, so it may hold data; and nothing after a restart could be sure to reach it either
            return of(
                    Kind.REFUSE,
                    "refused: Redis runs but refused fleetfix's connection, its max number of clients is reached ("
                            + s.why() + "): whether it holds data cannot be read; try again when clients have"
                            + " disconnected, or raise maxclients (CONFIG SET maxclients, and in redis.conf)");
        }
        if (options.allowDataLoss()) {
            return of(
                    Kind.RESTART,
                    "Redis did not answer (" + s.why() + ") and may hold data: restarting anyway (allow_data_loss)");
        }
        return of(
                Kind.REFUSE,
                "refused: Redis did not answer as Redis (" + s.why() + "), so whether it runs with data in memory"
                        + " is unknown: check that redis_host / redis_port name this host's Redis and that it answers");
    }

    private static RestartDecision unsafe(RedisSnapshot s, RestartOptions options, String situation) {
        if (s.persistent().isEmpty()) {
            if (options.allowDataLoss()) {
                return of(
                        Kind.RESTART, situation + ", " + s.persistenceText() + ": restarting anyway (allow_data_loss)");
            }
            return of(
                    Kind.REFUSE,
                    "refused: " + situation + ", and " + s.persistenceText()
                            + ": whether a restart would lose the data set cannot be told; set allow_data_loss:"
                            + " true to restart anyway");
        }
        if (s.persistent().get()) {
            return of(
                    Kind.SAVE_THEN_RESTART,
                    situation + ": " + (s.aof() ? "BGREWRITEAOF" : "BGSAVE") + " first (" + s.persistenceText() + ")");
        }
        if (options.allowDataLoss()) {
            return of(Kind.RESTART, situation + ", " + s.persistenceText() + ": restarting anyway (allow_data_loss)");
        }
        return of(
                Kind.REFUSE,
                "refused: " + situation + ", and " + s.persistenceText()
                        + ": a restart would lose the data set; set allow_data_loss: true to restart anyway");
    }
}
