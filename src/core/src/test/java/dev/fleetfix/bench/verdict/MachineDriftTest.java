package dev.fleetfix.bench.verdict;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.fleetfix.bench.BenchResult;
import dev.fleetfix.bench.ClientCpu;
import dev.fleetfix.bench.Latency;
import dev.fleetfix.bench.Metric;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

class MachineDriftTest {
    private static BenchResult round(Optional<ClientCpu> cpu) {
        return new BenchResult(
                "SET",
                1000,
                OptionalLong.of(1000),
                new Latency(
                        OptionalDouble.empty(),
                        OptionalDouble.empty(),
                        OptionalDouble.empty(),
                        Map.of(),
                        List.of(),
                        Optional.empty()),
                List.of(),
                cpu);
    }

    private static BenchResult round(double self, double machine) {
        return round(Optional.of(new ClientCpu(self, machine)));
    }

    private static BenchResult round(double self, double machine, double wait) {
        return round(Optional.of(new ClientCpu(self, machine, wait)));
    }

    @Test
    void theOtherShareIsTheMachineLessThisProcessAveragedOverRounds() {
        MachineDrift d = MachineDrift.of(
                        List.of(round(0.2, 0.3), round(0.2, 0.5)), List.of(round(0.1, 0.6), round(0.1, 0.8)))
                .orElseThrow();

        assertThat(d.before()).isCloseTo(0.2, within(1e-9));
        assertThat(d.after()).isCloseTo(0.6, within(1e-9));
        assertThat(d.rise()).isCloseTo(0.4, within(1e-9));
        assertThat(d.large()).isTrue();
    }

    @Test
    void aRiseExplainsLessThroughputAndAFallMore() {
        MachineDrift rose = new MachineDrift(0.1, 0.3);
        assertThat(rose.explains(Metric.RPS, 0.8)).isTrue();
        assertThat(rose.explains(Metric.RPS, 1.2)).isFalse();

        MachineDrift fell = new MachineDrift(0.3, 0.1);
        assertThat(fell.explains(Metric.RPS, 1.2)).isTrue();
        assertThat(fell.explains(Metric.RPS, 0.8)).isFalse();
    }

    /**
     * Regression: busy loops beside an unchanged lab host took its median latency down 35 % (the
     * starved generator sent fewer requests at once), and that was called improved.
     */
    @Test
    void aLargeDriftExplainsALatencyChangeEitherWay() {
        MachineDrift rose = new MachineDrift(0.41, 0.67);
        assertThat(rose.explains(Metric.P50, 0.65)).isTrue();
        assertThat(rose.explains(Metric.P99, 1.2)).isTrue();
        MachineDrift fell = new MachineDrift(0.41, 0.06);
        assertThat(fell.explains(Metric.P90, 1.25)).isTrue();
        assertThat(fell.explains(Metric.P99, 0.8)).isTrue();

        MachineDrift quiet = new MachineDrift(0.1, 0.19);
        assertThat(quiet.large()).isFalse();
        assertThat(quiet.explains(Metric.RPS, 0.5)).isFalse();
    }

    @Test
    void aRoundWithoutCpuFiguresOrAnUnknownMachineShareGivesNoDrift() {
        assertThat(MachineDrift.of(List.of(round(Optional.empty())), List.of(round(0.1, 0.2))))
                .isEmpty();
        assertThat(MachineDrift.of(List.of(round(0.1, Double.NaN)), List.of(round(0.1, 0.2))))
                .isEmpty();
        assertThat(MachineDrift.of(List.of(), List.of(round(0.1, 0.2)))).isEmpty();
    }

    @Test
    void aProcessShareAboveTheMachinesCountsAsNoOtherLoad() {
        // the two are read a moment apart; rounding must not make negative load
        MachineDrift d = MachineDrift.of(List.of(round(0.5, 0.45)), List.of(round(0.5, 0.5)))
                .orElseThrow();
        assertThat(d.before()).isZero();
    }

    /**
     * Regression (a loaded run of the suite, issue 44): busy loops beside an unchanged host on a machine that
     * stress-ng already kept busy raised other work from 71 % to 76 % only, under the guard's 10 points, and the
     * host was called regressed (p99 +582 %). The generator's threads' wait for a core is what rose.
     */
    @Test
    void onASaturatedMachineTheThreadsWaitShowsTheDriftTheBusyShareCannot() {
        MachineDrift d = MachineDrift.of(
                        List.of(round(0.22, 0.93, 0.20), round(0.24, 0.95, 0.22)),
                        List.of(round(0.18, 0.94, 0.50), round(0.18, 0.94, 0.54)))
                .orElseThrow();

        assertThat(d.rise()).isLessThan(MachineDrift.POINTS);
        assertThat(d.waitBefore()).isCloseTo(0.21, within(1e-9));
        assertThat(d.waitAfter()).isCloseTo(0.52, within(1e-9));
        assertThat(d.stretch()).isCloseTo(0.79 / 0.48, within(1e-9));
        assertThat(d.large()).isTrue();
        assertThat(d.explains(Metric.P99, 6.8)).isTrue();
        assertThat(d.explains(Metric.P50, 0.54)).isTrue();
        assertThat(d.explains(Metric.RPS, 0.8)).isTrue();
        assertThat(d.explains(Metric.RPS, 1.2))
                .as("a gain against the drift is still called")
                .isFalse();
        assertThat(d.describe())
                .contains("from 71 % during the before rounds to 76 % during the after rounds")
                .contains(
                        "waited for a core 21 % of their ready time before, 52 % after (their CPU came 1.6 times slower)");
    }

    /**
     * The share saturates as the busy share does: 86 % to 93 % (the same loops, on a machine busier still) is 7
     * points but a wait twice as long for each slice of CPU; 10 % to 17 % is 8 % longer.
     */
    @Test
    void theWaitIsJudgedAsHowManyTimesLongerTheCpuCameNotInPoints() {
        MachineDrift nearlyAll = new MachineDrift(0.86, 0.87, 0.86, 0.93);
        assertThat(nearlyAll.stretch()).isCloseTo(2.0, within(1e-9));
        assertThat(nearlyAll.rose()).isTrue();
        assertThat(nearlyAll.explains(Metric.P50, 0.65)).isTrue();

        MachineDrift little = new MachineDrift(0.3, 0.3, 0.10, 0.17);
        assertThat(little.stretch()).isCloseTo(0.90 / 0.83, within(1e-9));
        assertThat(little.large()).isFalse();
    }

    @Test
    void aWaitThatFellExplainsMoreThroughputAndNotLess() {
        MachineDrift d = new MachineDrift(0.5, 0.5, 0.60, 0.15);
        assertThat(d.fell()).isTrue();
        assertThat(d.describe()).contains("(their CPU came 2.1 times faster)");
        assertThat(d.rose()).isFalse();
        assertThat(d.explains(Metric.RPS, 1.3)).isTrue();
        assertThat(d.explains(Metric.RPS, 0.7)).isFalse();
    }

    /**
     * Regression (lab calibration, 2026-12-07): a 10 % CPU quota took rps down 88 % while other work fell from 44 %
     * to 5 % of the machine and the generator's wait rose from 63 % to 77 % of its ready time (its CPU 1.6 times
     * slower). With Redis slowed as much again and the margin, the drift can take rps down to 0.31 of what it was,
     * not to 0.12: the call was withheld all the same.
     */
    @Test
    void aThroughputChangeBeyondWhatTheDriftCanMakeIsStillCalled() {
        MachineDrift quota = new MachineDrift(0.44, 0.05, 0.63, 0.77);
        assertThat(quota.rose()).isTrue();
        assertThat(quota.slowdown()).isCloseTo(0.37 / 0.23, within(1e-9));
        assertThat(quota.explains(Metric.RPS, 0.12)).isFalse();
        assertThat(quota.explains(Metric.RPS, 0.6)).isTrue();
        assertThat(quota.explains(Metric.P999, 210))
                .as("latencies keep no reach")
                .isTrue();

        MachineDrift busier = new MachineDrift(0.1, 0.55);
        assertThat(busier.slowdown()).isCloseTo(0.9 / 0.45, within(1e-9));
        assertThat(busier.explains(Metric.RPS, 0.52))
                .as("busy loops beside an unchanged lab host: rps -48 %")
                .isTrue();
        // the reach, 1 / 2², less the 30 % floor: 0.175
        assertThat(busier.explains(Metric.RPS, 0.18)).isTrue();
        assertThat(busier.explains(Metric.RPS, 0.17)).isFalse();

        MachineDrift faster = new MachineDrift(0.5, 0.5, 0.60, 0.15);
        assertThat(faster.speedup()).isCloseTo(0.85 / 0.40, within(1e-9));
        // 2.125² over 0.7: 6.45
        assertThat(faster.explains(Metric.RPS, 6.3)).isTrue();
        assertThat(faster.explains(Metric.RPS, 6.6)).isFalse();
    }

    @Test
    void aWaitThatMovedLessThanItsRatioOrIsUnknownAddsNothing() {
        // the widest of 20 quiet A/A pairs on the lab: 54 % -> 63 %
        MachineDrift small = new MachineDrift(0.5, 0.52, 0.54, 0.63);
        assertThat(small.large()).isFalse();
        assertThat(small.describe()).doesNotContain("waited");

        MachineDrift unknown = MachineDrift.of(List.of(round(0.2, 0.5, 0.1)), List.of(round(0.2, 0.5)))
                .orElseThrow();
        assertThat(unknown.waitAfter()).isNaN();
        assertThat(unknown.large()).isFalse();
        assertThat(unknown.explains(Metric.P99, 3)).isFalse();
    }
}
