package dev.fleetfix.bench.verdict;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.fleetfix.bench.Metric;
import dev.fleetfix.bench.Phase;
import dev.fleetfix.bench.plan.BenchRun;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Difference in differences on synthetic rounds with known answers: the changed host "lab-1" and
 * its control "lab-2" (a later batch, unchanged) measured at the same two moments.
 */
class ControlsTest {
    /** lab-1 changed by {@code change}; at the after moment everything is slower by {@code drift}. */
    private static List<BenchRun> runs(long seed, double change, double drift) {
        SyntheticRounds gen = new SyntheticRounds(seed);
        gen.rounds = 5;
        List<BenchRun> all = new ArrayList<>(gen.side("lab-1", Phase.BEFORE, 1));
        gen.side("lab-2", Phase.BEFORE, 1).forEach(r -> all.add(r.asControlOf("lab-1", Phase.BEFORE)));
        all.addAll(gen.side("lab-1", Phase.AFTER, change * drift));
        gen.side("lab-2", Phase.BEFORE, drift).forEach(r -> all.add(r.asControlOf("lab-1", Phase.AFTER)));
        return all;
    }

    private static List<BenchRun> withoutControls(List<BenchRun> runs) {
        return runs.stream().filter(r -> r.controlFor().isEmpty()).toList();
    }

    @Test
    void aDriftOfTheWholeMachineIsNoChangeOfTheHost() {
        List<BenchRun> runs = runs(11, 1.0, 1.7);

        TestComparison plain =
                BeforeAfter.DEFAULT.perHost(withoutControls(runs)).get(0);
        TestComparison did = BeforeAfter.DEFAULT.perHost(runs).get(0);

        // without controls the drift is read as the host's regression...
        assertThat(plain.verdict()).isEqualTo(Verdict.REGRESSED);
        assertThat(plain.design()).startsWith("before/after; no control host");
        // ...with them it is taken out
        assertThat(did.verdict().called()).isFalse();
        assertThat(did.host()).isEqualTo("lab-1");
        assertThat(did.design()).startsWith("difference in differences: control host lab-2 (a later batch");
        MetricComparison rps = did.metrics().get(0);
        assertThat(rps.metric()).isEqualTo(Metric.RPS);
        assertThat(rps.ratio()).isCloseTo(1.0, within(0.05));
        // the shown figures are the ones the change is over: the before figure corrected by the drift
        assertThat(rps.afterSampleMedian() / rps.beforeSampleMedian()).isCloseTo(rps.ratio(), within(1e-9));
        assertThat(rps.beforeSampleMedian() / rps.uncorrectedBeforeMedian()).isCloseTo(1 / 1.7, within(0.04));
        assertThat(did.notes())
                .anyMatch(n -> n.matches(
                        "the control hosts drifted rps -(3[8-9]|4[0-5])\\.\\d %, p99 \\+(6[2-9]|7[0-9]|80)\\.\\d %.*"));
        // a control's rounds are never a comparison of the control host itself
        assertThat(BeforeAfter.DEFAULT.perHost(runs)).hasSize(1);
    }

    @Test
    void aRealHalvingUnderDriftIsFoundAndMeasuredWithoutTheDrift() {
        TestComparison did = BeforeAfter.DEFAULT.perHost(runs(12, 2.0, 1.2)).get(0);

        assertThat(did.verdict()).isEqualTo(Verdict.REGRESSED);
        MetricComparison rps = did.metrics().get(0);
        assertThat(rps.ratio()).isCloseTo(0.5, within(0.04));
        assertThat(rps.high()).isLessThan(0.6);
        assertThat(rps.verdict()).isEqualTo(Verdict.REGRESSED);
    }

    @Test
    void equalSidesEverywhereAreWithinNoise() {
        int verdicts = 0;
        for (long seed = 100; seed < 120; seed++) {
            if (BeforeAfter.DEFAULT
                    .perHost(runs(seed, 1.0, 1.0))
                    .get(0)
                    .verdict()
                    .called()) {
                verdicts++;
            }
        }
        // family-wise alpha 0.01 per comparison: 20 comparisons give 2 or more with probability 0.017
        assertThat(verdicts).isLessThanOrEqualTo(1);
    }
}
