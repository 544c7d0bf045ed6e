package dev.fleetfix.bench.verdict;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fleetfix.bench.Metric;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The fleet line follows the hosts that could call (issue 43 item 4): with every host regressed the fleet is
 * regressed, on each figure too, and a host whose own design could not call a change gives neither the fleet's
 * words nor its interval.
 */
class FleetFromCapableHostsTest {
    /** 8 batches a side (4 rounds of 2): the exact test reaches 2 / C(16, 8) = 0.00016, below 0.01 over 2 figures. */
    private static final int CAPABLE = 8;

    /** 5 batches a side (5 rounds without windows): it reaches only 2 / C(10, 5) = 0.0079, above 0.005. */
    private static final int TOO_FEW = 5;

    private static MetricComparison figure(Metric metric, double ratio, Verdict verdict, int batches) {
        Optional<String> reason = verdict == Verdict.INCONCLUSIVE ? Optional.of("interval too wide") : Optional.empty();
        return new MetricComparison(
                metric,
                List.of(1.0, 1.0, 1.0),
                List.of(ratio, ratio, ratio),
                1,
                ratio,
                0,
                0,
                ratio,
                verdict,
                FigureSamples.BATCH,
                batches,
                batches,
                ratio * 0.95,
                ratio * 1.05,
                0.001,
                0.002,
                0.2,
                Optional.empty(),
                1,
                ratio,
                1,
                Optional.empty(),
                reason,
                Double.NaN);
    }

    private static TestComparison host(String name, Verdict verdict, double rps, double p99, int batches) {
        Verdict p99Verdict = verdict == Verdict.REGRESSED ? Verdict.REGRESSED : verdict;
        Optional<String> reason = verdict == Verdict.INCONCLUSIVE ? Optional.of("interval too wide") : Optional.empty();
        return new TestComparison(
                name,
                "thp",
                "FORK-UNDER-LOAD",
                3,
                3,
                List.of(figure(Metric.RPS, rps, verdict, batches), figure(Metric.P99, p99, p99Verdict, batches)),
                verdict,
                "plain",
                List.of(),
                List.of(),
                reason);
    }

    @Test
    void everyHostRegressedMakesTheFleetAndEachFigureRegressed() {
        // the hosts' changes are far apart (rps −87 %, −40 %, −25 %): the interval of their mean is wide, but
        // every host called the same way
        List<TestComparison> hosts = List.of(
                host("lab-1", Verdict.REGRESSED, 0.13, 117, CAPABLE),
                host("lab-2", Verdict.REGRESSED, 0.6, 3, CAPABLE),
                host("lab-3", Verdict.REGRESSED, 0.75, 1.6, CAPABLE));
        FleetComparison fleet = FleetVerdict.of("thp", "FORK-UNDER-LOAD", hosts, 0.2, 0.01);
        assertThat(fleet.verdict()).isEqualTo(Verdict.REGRESSED);
        assertThat(fleet.reason()).isEqualTo("on 3 of 3 hosts, none improved");
        assertThat(fleet.metricVerdicts().get(Metric.RPS)).isEqualTo(Verdict.REGRESSED);
        assertThat(fleet.metricVerdicts().get(Metric.P99)).isEqualTo(Verdict.REGRESSED);
    }

    @Test
    void aHostWhoseDesignCouldNotCallGivesNeitherWordsNorInterval() {
        List<TestComparison> hosts = List.of(
                host("lab-1", Verdict.REGRESSED, 0.13, 117, CAPABLE),
                host("lab-2", Verdict.REGRESSED, 0.12, 90, CAPABLE),
                host("lab-3", Verdict.REGRESSED, 0.14, 130, CAPABLE),
                host("lab-4", Verdict.INCONCLUSIVE, 1.5, 0.5, TOO_FEW));
        assertThat(DesignCheck.couldCall(hosts.get(3), 0.01)).isFalse();
        assertThat(DesignCheck.couldCall(hosts.get(0), 0.01)).isTrue();
        FleetComparison fleet = FleetVerdict.of("thp", "FORK-UNDER-LOAD", hosts, 0.2, 0.01);
        assertThat(fleet.verdict()).isEqualTo(Verdict.REGRESSED);
        assertThat(fleet.reason())
                .isEqualTo("on 3 of 4 hosts, none improved; left out, their design could not call a change: lab-4");
        // the interval rests on the three hosts that could call: lab-4's +50 % rps is not in it
        assertThat(fleet.effects().get(Metric.RPS).hosts()).isEqualTo(3);
        assertThat(fleet.effects().get(Metric.RPS).high()).isLessThan(0.2);
        // every host is still listed with its own verdict
        assertThat(fleet.hosts()).hasSize(4);
    }

    @Test
    void withNoHostThatCouldCallTheFleetSaysSo() {
        List<TestComparison> hosts = List.of(
                host("lab-1", Verdict.INCONCLUSIVE, 0.13, 117, TOO_FEW),
                host("lab-2", Verdict.INCONCLUSIVE, 0.12, 90, TOO_FEW),
                host("lab-3", Verdict.INCONCLUSIVE, 0.14, 130, TOO_FEW));
        FleetComparison fleet = FleetVerdict.of("thp", "FORK-UNDER-LOAD", hosts, 0.2, 0.01);
        assertThat(fleet.verdict()).isEqualTo(Verdict.INCONCLUSIVE);
        assertThat(fleet.reason())
                .isEqualTo("on 3 of 3 hosts, none called a change (interval too wide); left out, their design could"
                        + " not call a change: lab-1, lab-2, lab-3; too few hosts for a fleet interval");
        assertThat(fleet.effects()).isEmpty();
    }
}
