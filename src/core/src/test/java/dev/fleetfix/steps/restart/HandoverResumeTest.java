package dev.fleetfix.steps.restart;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fleetfix.redis.topology.NodeRole;
import dev.fleetfix.steps.restart.HandoverResume.Kind;
import dev.fleetfix.steps.restart.HandoverResume.Target;
import dev.fleetfix.steps.restart.PendingRestart.Handover;
import dev.fleetfix.steps.restart.handover.Handover.Route;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Each case of {@link HandoverResume}: a journalled hand-over is finished only when it is exactly the host's state. */
class HandoverResumeTest {
    private static final String OURS = "8c1e0a3f9b2d4e6f8c1e0a3f9b2d4e6f8c1e0a3f";
    private static final String LATER = "0123456789abcdef0123456789abcdef01234567";
    private static final Handover FAILBACK =
            new Handover(Route.FAILOVER, "10.0.0.3", 6379, "lab-3", true, Optional.of(OURS), Optional.of("lab-2"));
    private static final Handover OLD_RECORD = new Handover(Route.FAILOVER, "10.0.0.3", 6379, "lab-3", true);
    private static final Optional<String> AT_TARGET = Optional.of("10.0.0.3");

    private static HandoverResume replicaOfTarget(Handover h, Target target, boolean restartPending) {
        return HandoverResume.decide("lab-2", h, "R1", NodeRole.REPLICA, AT_TARGET, 6379, target, restartPending);
    }

    @Test
    void theHandedOverStateWithTheNewPrimarysLastPromotionOursIsResumed() {
        HandoverResume r = replicaOfTarget(FAILBACK, Target.answered(NodeRole.PRIMARY, Optional.of(OURS)), false);
        assertThat(r.kind()).isEqualTo(Kind.RESUME);
        assertThat(r.reason())
                .isEqualTo("a run that did not end handed the primary role over (FAILOVER to lab-3 (10.0.0.3:6379),"
                        + " journalled in /var/lib/fleetfix/restart-pending): lab-2 is a replica of lab-3");
    }

    @Test
    void aNewPrimaryPromotedAgainSinceTheHandOverIsTheOperatorsAndNotUndone() {
        HandoverResume r = replicaOfTarget(FAILBACK, Target.answered(NodeRole.PRIMARY, Optional.of(LATER)), true);
        assertThat(r.kind()).isEqualTo(Kind.DROP);
        assertThat(r.reason())
                .isEqualTo("dropped the hand-over record of run R1 (FAILOVER to lab-3 (10.0.0.3:6379)): lab-3 was"
                        + " made primary again since the hand-over (its replication history is not the one handed"
                        + " over): the primary was moved since; no failback");
        // a new primary restarted since says no replid2 of ours either
        assertThat(replicaOfTarget(FAILBACK, Target.answered(NodeRole.PRIMARY, Optional.empty()), true)
                        .kind())
                .isEqualTo(Kind.DROP);
    }

    @Test
    void withoutALineageOnlyARunThatDiedBeforeThisHostRestartedIsResumed() {
        Target primary = Target.answered(NodeRole.PRIMARY, Optional.empty());
        assertThat(replicaOfTarget(OLD_RECORD, primary, true).kind()).isEqualTo(Kind.RESUME);
        // the "already runs under it" path with an operator's failover: nothing tells it from ours
        HandoverResume stale = replicaOfTarget(OLD_RECORD, primary, false);
        assertThat(stale.kind()).isEqualTo(Kind.DROP);
        assertThat(stale.reason())
                .contains("lab-2 already runs under the change")
                .endsWith("make lab-2 primary again by hand if it should be; no failback");
    }

    @Test
    void aHostThatIsPrimaryHasNoHandOverLeftToFinish() {
        HandoverResume r = HandoverResume.decide(
                "lab-2", FAILBACK, "R1", NodeRole.PRIMARY, Optional.empty(), 0, Target.unreadable("not asked"), true);
        assertThat(r.kind()).isEqualTo(Kind.DROP);
        assertThat(r.reason()).endsWith("lab-2 is primary (the hand-over was undone or never done)");
    }

    @Test
    void aReplicaOfAnotherNodeWasMovedByTheOperator() {
        HandoverResume r = HandoverResume.decide(
                "lab-2",
                FAILBACK,
                "R1",
                NodeRole.REPLICA,
                Optional.of("10.0.0.4"),
                6379,
                Target.unreadable("not asked"),
                true);
        assertThat(r.kind()).isEqualTo(Kind.DROP);
        assertThat(r.reason())
                .contains("lab-2 is a replica of 10.0.0.4:6379, not of lab-3: the primary was moved since");
        // the same address on another port is another node
        assertThat(HandoverResume.decide(
                                "lab-2",
                                FAILBACK,
                                "R1",
                                NodeRole.REPLICA,
                                AT_TARGET,
                                6380,
                                Target.unreadable("not asked"),
                                true)
                        .kind())
                .isEqualTo(Kind.DROP);
    }

    @Test
    void aNewPrimaryThatIsNoLongerPrimaryIsNotFailedBackFrom() {
        HandoverResume r = replicaOfTarget(FAILBACK, Target.answered(NodeRole.REPLICA, Optional.of(OURS)), true);
        assertThat(r.kind()).isEqualTo(Kind.DROP);
        assertThat(r.reason()).contains("lab-3 is no longer primary");
    }

    @Test
    void whatCannotBeReadKeepsTheRecordAndActsOnNothing() {
        HandoverResume self = HandoverResume.decide(
                "lab-2", FAILBACK, "R1", NodeRole.UNKNOWN, Optional.empty(), 0, Target.unreadable("not asked"), true);
        assertThat(self.kind()).isEqualTo(Kind.CANNOT_TELL);
        assertThat(self.reason()).startsWith("the role of lab-2 cannot be read");
        HandoverResume target = replicaOfTarget(FAILBACK, Target.unreadable("connection refused"), true);
        assertThat(target.kind()).isEqualTo(Kind.CANNOT_TELL);
        assertThat(target.reason()).startsWith("the role of lab-3 cannot be read (connection refused)");
    }

    @Test
    void theSentinelRouteIsNeverResumedAndSaysWhatToDo() {
        Handover sentinel = new Handover(Route.SENTINEL, "", 0, "lab", true);
        HandoverResume r = HandoverResume.decide(
                "lab-2",
                sentinel,
                "R1",
                NodeRole.REPLICA,
                AT_TARGET,
                6379,
                Target.answered(NodeRole.PRIMARY, Optional.empty()),
                true);
        assertThat(r.kind()).isEqualTo(Kind.DROP);
        assertThat(r.reason()).contains("make lab-2 primary again by hand if it should be");
    }

    @Test
    void aStayRecordDroppedSaysNothingOfAFailback() {
        Handover stay =
                new Handover(Route.FAILOVER, "10.0.0.3", 6379, "lab-3", false, Optional.of(OURS), Optional.of("lab-2"));
        HandoverResume r = replicaOfTarget(stay, Target.answered(NodeRole.PRIMARY, Optional.of(LATER)), true);
        assertThat(r.kind()).isEqualTo(Kind.DROP);
        assertThat(r.reason()).doesNotContain("failback");
    }

    @Test
    void theRecordKeepsItsLineageAndReadsAnOlderFleetfixsFiveWords() {
        Handover h = PendingRestart.Handover.parse(FAILBACK.line()).orElseThrow();
        assertThat(h).isEqualTo(FAILBACK);
        assertThat(PendingRestart.Handover.parse("failover 10.0.0.3 6379 lab-3 failback"))
                .contains(OLD_RECORD);
        // a lineage that is no replication ID is not one
        assertThat(PendingRestart.Handover.parse("failover 10.0.0.3 6379 lab-3 failback $(x) lab-2")
                        .orElseThrow()
                        .lineage())
                .isEmpty();
        // the record is the machine's: another Redis of it does not take lab-2's hand-over for its own
        assertThat(FAILBACK.of("lab-2")).isTrue();
        assertThat(FAILBACK.of("lab-2b")).isFalse();
        assertThat(OLD_RECORD.of("lab-2b")).as("an older record names no host").isTrue();
    }
}
