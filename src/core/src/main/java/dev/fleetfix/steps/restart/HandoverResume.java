package dev.fleetfix.steps.restart;

import dev.fleetfix.redis.topology.NodeRole;
import dev.fleetfix.steps.restart.PendingRestart.Handover;
import java.util.Objects;
import java.util.Optional;

/**
 * Whether a hand-over journalled on the host by an earlier run ({@link PendingRestart}) is still the host's state, so
 * that this run may finish it (restart as a replica, fail back), decided from what the host and the journalled new
 * primary say now. An operator may have moved the primary since, on purpose: a record is acted upon only when its
 * hand-over is exactly the current state, and dropped, in one line, when its purpose is gone.
 *
 * <ul>
 *   <li>Resume: this host is a replica of the journalled new primary, which is still primary, and that primary's
 *       last promotion is the journalled one: its {@code master_replid2} is the replication ID this host had as
 *       primary before the hand-over (every promotion gives a primary a new ID and keeps the one it followed as
 *       {@code master_replid2}, so a later failover, a failback and back again, or a restart of the new primary all
 *       change it). Without the ID (a record of an older fleetfix, Redis before 4.0), only a run that died before
 *       this host restarted is resumed: a host that already runs under the change has nothing left but a failback
 *       that cannot be told from an operator's failover.
 *   <li>Drop: this host is primary (the hand-over is over), a replica of another node, the journalled primary is no
 *       longer primary or was promoted again since; the Sentinel route (Sentinel picked the primary; fleetfix does not
 *       fail back after a crash there).
 *   <li>Cannot tell: this host's role or the journalled primary's cannot be read. Nothing is done; the record is
 *       kept.
 * </ul>
 *
 * @param kind what to do with the record
 * @param reason why, in one line for the step's result
 */
public record HandoverResume(Kind kind, String reason) {
    /** What to do with a journalled hand-over. */
    public enum Kind {
        /** The hand-over is the current state: finish it. */
        RESUME,
        /** Its purpose is gone: remove the hand-over from the record, act on nothing it says. */
        DROP,
        /** A fact is missing: act on nothing, keep the record. */
        CANNOT_TELL
    }

    public HandoverResume {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(reason, "reason");
    }

    /**
     * What the journalled new primary says now.
     *
     * @param role its role; UNKNOWN when it could not be asked
     * @param replid2 its {@code master_replid2}; empty when it does not say (Redis before 4.0)
     * @param error why it could not be asked
     */
    public record Target(NodeRole role, Optional<String> replid2, String error) {
        public Target {
            Objects.requireNonNull(role, "role");
            Objects.requireNonNull(replid2, "replid2");
            Objects.requireNonNull(error, "error");
        }

        public static Target answered(NodeRole role, Optional<String> replid2) {
            return new Target(role, replid2, "");
        }

        public static Target unreadable(String why) {
            return new Target(NodeRole.UNKNOWN, Optional.empty(), why);
        }
    }

    /** Decides on the facts below ({@link Facts}). */
    public static HandoverResume decide(
            String self,
            Handover journalled,
            String run,
            NodeRole role,
            Optional<String> primaryHost,
            int primaryPort,
            Target target,
            boolean restartPending) {
        return new Facts(self, journalled, run, role, primaryHost, primaryPort, target, restartPending).decide();
    }

    /**
     * What the decision reads: first this host's role, then the route (Sentinel's, or one that named the new
     * primary), then the new primary's state and what the record can prove of it.
     *
     * @param self this host's name
     * @param journalled the record's hand-over
     * @param run the run that journalled it, as the record says ({@code unknown} when it does not)
     * @param role this host's role now
     * @param primaryHost a replica's {@code master_host}
     * @param primaryPort a replica's {@code master_port}
     * @param target the journalled new primary now; only asked when this host is its replica
     * @param restartPending this host's Redis has not yet restarted since the record was written
     */
    record Facts(
            String self,
            Handover journalled,
            String run,
            NodeRole role,
            Optional<String> primaryHost,
            int primaryPort,
            Target target,
            boolean restartPending) {

        HandoverResume decide() {
            return switch (role) {
                case UNKNOWN -> new HandoverResume(
                        Kind.CANNOT_TELL,
                        "the role of " + self + " cannot be read: " + record() + " is kept, acted on later");
                case PRIMARY -> new HandoverResume(
                        Kind.DROP,
                        "dropped " + record() + ": " + self + " is primary (the hand-over was undone or never done)");
                default -> journalled.ip().isEmpty() ? sentinelRoute() : newPrimaryNamed();
            };
        }

        /** Sentinel picked the new primary: nothing of its choice is undone after a crash. */
        private HandoverResume sentinelRoute() {
            return drop("Sentinel chose the new primary, and fleetfix does not fail back after a crash on that route"
                    + byHand());
        }

        /** A route that named the new primary: finished only while this host follows it and it is that primary. */
        private HandoverResume newPrimaryNamed() {
            if (!primaryHost.equals(Optional.of(journalled.ip())) || primaryPort != journalled.port()) {
                return drop(self + " is a replica of " + primaryHost.orElse("?") + ":" + primaryPort + ", not of "
                        + journalled.host() + ": the primary was moved since");
            }
            if (target.role() == NodeRole.UNKNOWN) {
                return new HandoverResume(
                        Kind.CANNOT_TELL,
                        "the role of " + journalled.host() + " cannot be read ("
                                + (target.error().isEmpty() ? "it did not say" : target.error()) + "): " + record()
                                + " is kept, acted on later");
            }
            if (target.role() != NodeRole.PRIMARY) {
                return drop(journalled.host() + " is no longer primary: the primary was moved since");
            }
            if (journalled.lineage().isPresent()) {
                return journalled.lineage().equals(target.replid2())
                        ? resume()
                        : drop(journalled.host() + " was made primary again since the hand-over (its replication"
                                + " history is not the one handed over): the primary was moved since");
            }
            return restartPending
                    ? resume()
                    : drop(self + " already runs under the change and whether " + journalled.host()
                            + " is still primary from that hand-over cannot be told (no replication ID in the record)"
                            + byHand());
        }

        private String record() {
            return "the hand-over record of run " + run + " (" + journalled.describe() + ")";
        }

        private String byHand() {
            return journalled.failback() ? ": make " + self + " primary again by hand if it should be" : "";
        }

        private HandoverResume resume() {
            return new HandoverResume(
                    Kind.RESUME,
                    "a run that did not end handed the primary role over (" + journalled.describe()
                            + ", journalled in " + PendingRestart.PATH + "): " + self + " is a replica of "
                            + journalled.host());
        }

        private HandoverResume drop(String why) {
            return new HandoverResume(
                    Kind.DROP, "dropped " + record() + ": " + why + (journalled.failback() ? "; no failback" : ""));
        }
    }
}
