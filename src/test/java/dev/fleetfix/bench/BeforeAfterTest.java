package dev.fleetfix.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

class BeforeAfterTest {

    /** A SET round with the given throughput, p99 and max (ms). */
    private static BenchResult round(double rps, double p99, double max) {
        Latency latency = new Latency(
                OptionalDouble.empty(),
                OptionalDouble.empty(),
                OptionalDouble.of(max),
                Map.of(99.0, p99),
                List.of(),
                Optional.empty());
        return new BenchResult("SET", rps, OptionalLong.empty(), latency);
    }

    private static List<BenchRun> runs(String host, Phase phase, BenchResult... rounds) {
        List<BenchRun> runs = new ArrayList<>();
        for (BenchResult r : rounds) {
            runs.add(new BenchRun(host, "fork", phase, List.of(r)));
        }
        return runs;
    }

    private static List<BenchRun> both(List<BenchRun> before, List<BenchRun> after) {
        List<BenchRun> all = new ArrayList<>(before);
        all.addAll(after);
        return all;
    }

    private static MetricComparison metric(TestComparison c, Metric m) {
        return c.metrics().stream().filter(x -> x.metric() == m).findFirst().orElseThrow();
    }

    @Test
    void aTailThatDropsFarBeyondTheSpreadIsAnImprovement() {
        List<BenchRun> all = both(
                runs(
                        "redis-1",
                        Phase.BEFORE,
                        round(240_000, 1.2, 110),
                        round(241_000, 1.3, 148),
                        round(239_000, 1.1, 125)),
                runs(
                        "redis-1",
                        Phase.AFTER,
                        round(241_000, 1.2, 20),
                        round(240_500, 1.25, 35),
                        round(240_000, 1.15, 28)));

        TestComparison c = BeforeAfter.DEFAULT.perHost(all).get(0);

        assertThat(c.host()).isEqualTo("redis-1");
        assertThat(c.test()).isEqualTo("SET");
        assertThat(c.beforeRounds()).isEqualTo(3);
        MetricComparison max = metric(c, Metric.MAX);
        assertThat(max.beforeMedian()).isEqualTo(125);
        assertThat(max.afterMedian()).isEqualTo(28);
        assertThat(max.beforeSpread()).isEqualTo(38);
        assertThat(max.ratio()).isCloseTo(28.0 / 125, within(1e-9));
        assertThat(max.verdict()).isEqualTo(Verdict.IMPROVED);
        assertThat(metric(c, Metric.P99).verdict()).isEqualTo(Verdict.WITHIN_NOISE);
        assertThat(metric(c, Metric.RPS).verdict()).isEqualTo(Verdict.WITHIN_NOISE);
        assertThat(c.verdict()).isEqualTo(Verdict.IMPROVED);
    }

    @Test
    void aDifferenceOfMediansSmallerThanTheSpreadIsNoise() {
        // medians 50 -> 30 ms, but one side ranges over 10..90 ms: not evidence
        List<BenchRun> all = both(
                runs("redis-1", Phase.BEFORE, round(100_000, 1, 10), round(100_000, 1, 50), round(100_000, 1, 90)),
                runs("redis-1", Phase.AFTER, round(100_000, 1, 29), round(100_000, 1, 30), round(100_000, 1, 31)));

        TestComparison c = BeforeAfter.DEFAULT.perHost(all).get(0);

        assertThat(metric(c, Metric.MAX).verdict()).isEqualTo(Verdict.WITHIN_NOISE);
        assertThat(c.verdict()).isEqualTo(Verdict.WITHIN_NOISE);
    }

    @Test
    void lowerThroughputBeyondNoiseIsARegressionAndWinsOverAnImprovedTail() {
        List<BenchRun> all = both(
                runs("redis-1", Phase.BEFORE, round(100_000, 1, 100), round(101_000, 1, 100), round(99_000, 1, 100)),
                runs("redis-1", Phase.AFTER, round(80_000, 1, 20), round(81_000, 1, 20), round(79_000, 1, 20)));

        TestComparison c = BeforeAfter.DEFAULT.perHost(all).get(0);

        assertThat(metric(c, Metric.RPS).verdict()).isEqualTo(Verdict.REGRESSED);
        assertThat(metric(c, Metric.MAX).verdict()).isEqualTo(Verdict.IMPROVED);
        assertThat(c.verdict()).isEqualTo(Verdict.REGRESSED);
    }

    @Test
    void withOneRoundPerSideOnlyTheRelativeFloorGuards() {
        List<BenchRun> all = both(
                runs("redis-1", Phase.BEFORE, round(100_000, 1.00, 10)),
                runs("redis-1", Phase.AFTER, round(104_000, 1.04, 9.6)));

        TestComparison c = BeforeAfter.DEFAULT.perHost(all).get(0);

        assertThat(c.metrics()).allSatisfy(m -> assertThat(m.verdict()).isEqualTo(Verdict.WITHIN_NOISE));
        assertThat(new BeforeAfter(0.01).perHost(all).get(0).verdict()).isEqualTo(Verdict.REGRESSED);
    }

    @Test
    void comparesOnlyFiguresEverySideKnows() {
        List<BenchRun> all = both(
                runs("redis-1", Phase.BEFORE, round(100_000, 1, 10)),
                runs("redis-1", Phase.AFTER, round(100_000, 1, 10)));

        TestComparison c = BeforeAfter.DEFAULT.perHost(all).get(0);

        assertThat(c.metrics())
                .extracting(MetricComparison::metric)
                .containsExactly(Metric.RPS, Metric.P99, Metric.MAX);
    }

    @Test
    void ignoresTestsRunOnOnlyOneSide() {
        List<BenchRun> all = runs("redis-1", Phase.BEFORE, round(100_000, 1, 10));

        assertThat(BeforeAfter.DEFAULT.perHost(all)).isEmpty();
    }

    @Test
    void theFleetRegressesWhenAnyHostDoesAndReportsTheMedianRatio() {
        List<BenchRun> all = new ArrayList<>();
        all.addAll(
                runs("redis-1", Phase.BEFORE, round(100_000, 1, 100), round(100_000, 1, 100), round(100_000, 1, 100)));
        all.addAll(runs("redis-1", Phase.AFTER, round(100_000, 1, 20), round(100_000, 1, 20), round(100_000, 1, 20)));
        all.addAll(
                runs("redis-2", Phase.BEFORE, round(100_000, 1, 100), round(100_000, 1, 100), round(100_000, 1, 100)));
        all.addAll(runs("redis-2", Phase.AFTER, round(100_000, 1, 40), round(100_000, 1, 40), round(100_000, 1, 40)));
        all.addAll(
                runs("redis-3", Phase.BEFORE, round(100_000, 1, 100), round(100_000, 1, 100), round(100_000, 1, 100)));
        all.addAll(runs("redis-3", Phase.AFTER, round(100_000, 1, 30), round(100_000, 1, 30), round(100_000, 1, 30)));

        FleetComparison fleet = BeforeAfter.DEFAULT.fleet(all).get(0);

        assertThat(fleet.hosts()).hasSize(3);
        assertThat(fleet.medianRatio().get(Metric.MAX)).isCloseTo(0.30, within(1e-9));
        assertThat(fleet.count(Verdict.IMPROVED)).isEqualTo(3);
        assertThat(fleet.verdict()).isEqualTo(Verdict.IMPROVED);

        all.addAll(runs("redis-4", Phase.BEFORE, round(100_000, 1, 10), round(100_000, 1, 10), round(100_000, 1, 10)));
        all.addAll(runs("redis-4", Phase.AFTER, round(100_000, 1, 90), round(100_000, 1, 90), round(100_000, 1, 90)));
        assertThat(BeforeAfter.DEFAULT.fleet(all).get(0).verdict()).isEqualTo(Verdict.REGRESSED);
    }

    @Test
    void rejectsANoiseFloorOutsideItsRange() {
        assertThatThrownBy(() -> new BeforeAfter(1.5))
                .hasMessageContaining("relativeNoise")
                .hasMessageContaining("1.5");
    }
}
