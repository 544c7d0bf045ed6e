package dev.fleetfix.steps.restart;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fleetfix.steps.restart.PendingRestart.Marker;
import dev.fleetfix.steps.restart.handover.Handover.Route;
import java.util.Optional;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

class RestartDueTest {
    private static final long CHANGED = 1_800_000_000L;
    private static final Optional<Marker> THP =
            Optional.of(Marker.parse("since=" + CHANGED + "\nreason=thp.enabled always -> never\nrun=R1\n"));

    @Test
    void aRedisThatStartedBeforeThePendingChangeRestartsThoughNothingChangedInThisPlay() {
        RestartDue due = RestartDue.decide(false, false, THP, OptionalLong.of(CHANGED - 70));
        assertThat(due.due()).isTrue();
        assertThat(due.fromHost()).isTrue();
        assertThat(due.reason())
                .isEqualTo("restart pending on the host since 2027-01-15T08:00:00Z (thp.enabled always -> never, run"
                        + " R1): this Redis started 70 s before it, under the old setting");
    }

    @Test
    void theSameSecondCountsAsBefore() {
        assertThat(RestartDue.decide(false, false, THP, OptionalLong.of(CHANGED))
                        .due())
                .isTrue();
    }

    @Test
    void aRedisThatStartedAfterTheChangeAlreadyRunsUnderIt() {
        RestartDue due = RestartDue.decide(false, false, THP, OptionalLong.of(CHANGED + 1));
        assertThat(due.due()).isFalse();
        assertThat(due.reason())
                .isEqualTo("this Redis started after the change (thp.enabled always -> never): it already runs"
                        + " under it");
    }

    @Test
    void aStartTimeOrARecordTimeThatCannotBeReadRestarts() {
        assertThat(RestartDue.decide(false, false, THP, OptionalLong.empty()).reason())
                .endsWith("and when this Redis started cannot be read");
        assertThat(RestartDue.decide(false, false, Optional.of(Marker.parse("reason=x\n")), OptionalLong.of(5))
                        .due())
                .isTrue();
    }

    @Test
    void withoutARecordOnlyThePlayDecides() {
        assertThat(RestartDue.decide(false, false, Optional.empty(), OptionalLong.of(1)))
                .isEqualTo(new RestartDue(
                        false, false, "nothing changed on this host in this play and no restart is pending on it"));
        assertThat(RestartDue.decide(false, true, Optional.empty(), OptionalLong.empty()))
                .isEqualTo(new RestartDue(true, false, "this host changed in this play"));
        assertThat(RestartDue.decide(true, false, Optional.empty(), OptionalLong.empty()))
                .isEqualTo(new RestartDue(true, false, "always: true"));
    }

    @Test
    void theRecordKeepsAJournalledHandOver() {
        Marker m = Marker.parse("since=5\nhandover=failover 127.0.0.12 6379 lab-2 failback\n");
        assertThat(m.handover())
                .contains(new PendingRestart.Handover(Route.FAILOVER, "127.0.0.12", 6379, "lab-2", true));
        assertThat(m.handover().get().describe()).isEqualTo("FAILOVER to lab-2 (127.0.0.12:6379)");
        assertThat(Marker.parse("since=5\nhandover=garbage\n").handover()).isEmpty();
    }
}
