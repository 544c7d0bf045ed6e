package dev.fleetfix.bench.verdict;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fleetfix.bench.Metric;
import dev.fleetfix.bench.Phase;
import dev.fleetfix.bench.plan.BenchPlanBuilder;
import dev.fleetfix.bench.plan.BenchRun;
import dev.fleetfix.bench.plan.SweepPoint;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Sweeps on synthetic rounds whose answers are known: where latency jumps, and by how much. */
class SweepTest {
    private static final Sweep SWEEP = new Sweep(BeforeAfter.DEFAULT);

    /** Rounds of every point, each point's latencies multiplied by its factor. */
    private static List<BenchRun> sweep(long seed, List<SweepPoint> points, List<Double> factors) {
        SyntheticRounds model = new SyntheticRounds(seed);
        model.rounds = BenchPlanBuilder.DEFAULT_SWEEP_ROUNDS;
        List<BenchRun> runs = new ArrayList<>();
        for (int i = 0; i < points.size(); i++) {
            SweepPoint p = points.get(i);
            model.side("lab-1", Phase.BEFORE, factors.get(i)).forEach(r -> runs.add(r.at(p)));
        }
        return runs;
    }

    private static SweepPoint size(int bytes) {
        return new SweepPoint(bytes, Optional.empty());
    }

    private static MetricComparison metric(SweepComparison c, Metric m) {
        return c.comparison().metrics().stream()
                .filter(x -> x.metric() == m)
                .findFirst()
                .orElseThrow();
    }

    @Test
    void aJumpPastOneKibIsTheOnlyChangeFoundWithItsSizeInTheInterval() {
        List<SweepPoint> points = List.of(size(64), size(512), size(1024), size(2048), size(4096));
        List<SweepComparison> comparisons = SWEEP.compare(sweep(17, points, List.of(1.0, 1.0, 1.0, 1.30, 1.30)));

        assertThat(comparisons)
                .extracting(c -> c.to().valueSize() + " vs " + c.from().valueSize())
                .containsExactly("512 vs 64", "1024 vs 512", "2048 vs 1024", "4096 vs 2048");
        assertThat(comparisons).allSatisfy(c -> assertThat(c.factor()).isEqualTo(SweepComparison.Factor.VALUE_SIZE));
        assertThat(comparisons)
                .extracting(c -> c.comparison().verdict().called())
                .containsExactly(false, false, true, false);
        MetricComparison p50 = metric(comparisons.get(2), Metric.P50);
        assertThat(p50.verdict()).isEqualTo(Verdict.REGRESSED);
        assertThat(p50.low()).isLessThan(1.30);
        assertThat(p50.high()).isGreaterThan(1.30);
        assertThat(p50.ratio()).isBetween(1.2, 1.4);
        assertThat(comparisons.get(2).comparison().design())
                .contains("2048 B against 1024 B")
                .contains("split over 4 comparisons");
    }

    @Test
    void aFlatSweepIsWithinNoiseEverywhereOverManySeeds() {
        List<SweepPoint> points = List.of(size(64), size(512), size(1024), size(2048), size(4096), size(8192));
        int falseChanges = 0;
        for (long seed = 1; seed <= 20; seed++) {
            for (SweepComparison c : SWEEP.compare(sweep(seed, points, List.of(1.0, 1.0, 1.0, 1.0, 1.0, 1.0)))) {
                if (c.comparison().verdict().called()) {
                    falseChanges++;
                }
            }
        }
        // 20 flat sweeps of 5 comparisons each: alpha 0.01 per sweep allows well under one
        assertThat(falseChanges).isLessThanOrEqualTo(1);
    }

    @Test
    void nagleWorthTwoPercentIsBelowTheFloorAndTwentyFivePercentIsNot() {
        List<SweepPoint> points = List.of(
                new SweepPoint(64, Optional.of(true)),
                new SweepPoint(1024, Optional.of(true)),
                new SweepPoint(64, Optional.of(false)),
                new SweepPoint(1024, Optional.of(false)));
        List<SweepComparison> two = SWEEP.compare(sweep(5, points, List.of(1.0, 1.0, 1.02, 1.02)));
        // a change is called when its batches show it beyond the 5 % floor at the split level: with 8 % window noise,
        // 10 batches a point, 25 % is
        List<SweepComparison> ten = SWEEP.compare(sweep(5, points, List.of(1.0, 1.0, 1.25, 1.25)));

        List<SweepComparison> nagle = two.stream()
                .filter(c -> c.factor() == SweepComparison.Factor.TCP_NODELAY)
                .toList();
        assertThat(nagle)
                .extracting(c -> c.to().label() + " vs " + c.from().label())
                .containsExactly(
                        "64 B, tcp_nodelay off vs 64 B, tcp_nodelay on",
                        "1024 B, tcp_nodelay off vs 1024 B, tcp_nodelay on");
        assertThat(nagle)
                .allSatisfy(c -> assertThat(c.comparison().verdict().called()).isFalse());
        // measured all the same: the 95 % interval holds the true 2 % as often as it says, over many seeds. Its
        // batches share their round's drift (2 % a round), which the rank test's interval does not know of, so it
        // holds a little less often than 95 %: 182 of 200 (91 %; 181 when a batch was the median of its windows)
        int held = 0;
        for (long seed = 100; seed < 200; seed++) {
            for (SweepComparison c : SWEEP.compare(sweep(seed, points, List.of(1.0, 1.0, 1.02, 1.02)))) {
                MetricComparison p50 = metric(c, Metric.P50);
                if (c.factor() == SweepComparison.Factor.TCP_NODELAY && p50.low() < 1.02 && p50.high() > 1.02) {
                    held++;
                }
            }
        }
        assertThat(held).isEqualTo(182);
        assertThat(ten.stream().filter(c -> c.factor() == SweepComparison.Factor.TCP_NODELAY))
                .allSatisfy(c -> assertThat(c.comparison().verdict()).isEqualTo(Verdict.REGRESSED));
        // the sizes are compared within each setting, never across settings
        assertThat(two)
                .filteredOn(c -> c.factor() == SweepComparison.Factor.VALUE_SIZE)
                .extracting(c -> c.to().label() + " vs " + c.from().label())
                .containsExactly(
                        "1024 B, tcp_nodelay on vs 64 B, tcp_nodelay on",
                        "1024 B, tcp_nodelay off vs 64 B, tcp_nodelay off");
    }

    @Test
    void sweepRoundsStayOutOfTheBeforeAfterComparisons() {
        List<BenchRun> runs = sweep(3, List.of(size(64), size(512)), List.of(1.0, 1.0));
        runs.addAll(new SyntheticRounds(4).side("lab-1", Phase.AFTER, 1.0));

        assertThat(BeforeAfter.DEFAULT.perHost(runs))
                .as("the after rounds have no before side outside the sweep")
                .isEmpty();
    }
}
