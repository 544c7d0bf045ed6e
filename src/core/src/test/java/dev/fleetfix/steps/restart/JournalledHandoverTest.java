package dev.fleetfix.steps.restart;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fleetfix.steps.restart.handover.Handover.Route;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The host's record keeps the route as the word every fleetfix wrote ({@code failover}, {@code manual}, {@code
 * cluster}, {@code sentinel}): a record the previous version journalled reads as the same route and is written back
 * word for word, so a run of this version resumes it.
 */
class JournalledHandoverTest {
    private static final String OURS = "8c1e0a3f9b2d4e6f8c1e0a3f9b2d4e6f8c1e0a3f";

    @Test
    void recordsOfThePreviousVersionReadAsTheirRouteAndAreWrittenBackUnchanged() {
        List<String> written = List.of(
                "failover 127.0.0.12 6379 lab-2 failback " + OURS + " lab-1",
                "manual 127.0.0.12 6379 lab-2 stay " + OURS + " lab-1",
                "cluster 127.0.0.22 6379 lab-c2 stay - lab-c1",
                "sentinel - 0 lab failback - lab-1");
        List<Route> routes = List.of(Route.FAILOVER, Route.MANUAL, Route.CLUSTER, Route.SENTINEL);
        for (int i = 0; i < written.size(); i++) {
            PendingRestart.Marker m = PendingRestart.Marker.parse(
                    "since=1800000000\nreason=thp.enabled always -> never\nrun=R1\nhandover=" + written.get(i) + "\n");
            PendingRestart.Handover h = m.handover().orElseThrow();
            assertThat(h.route()).as(written.get(i)).isEqualTo(routes.get(i));
            assertThat(h.line()).isEqualTo(written.get(i));
        }
    }

    @Test
    void theOlderFiveWordRecordStillReads() {
        PendingRestart.Handover h = PendingRestart.Handover.parse("manual 10.0.0.3 6379 lab-3 failback")
                .orElseThrow();
        assertThat(h.route()).isEqualTo(Route.MANUAL);
        assertThat(h.describe()).isEqualTo("MANUAL to lab-3 (10.0.0.3:6379)");
        assertThat(h.lineage()).isEmpty();
    }

    @Test
    void aRouteWordNoRouteHasIsNoHandOver() {
        assertThat(PendingRestart.Handover.parse("teleport 10.0.0.3 6379 lab-3 failback"))
                .isEmpty();
        assertThat(PendingRestart.Handover.parse("FAILOVER 10.0.0.3 6379 lab-3 failback"))
                .as("the record's words are lower case")
                .isEqualTo(Optional.empty());
    }
}
