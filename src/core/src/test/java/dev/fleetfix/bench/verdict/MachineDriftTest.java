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
}
