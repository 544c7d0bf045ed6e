package dev.fleetfix.bench.verdict.stats;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class DifferenceInDifferencesTest {
    /** Rounds of windows around {@code center}, with round-to-round and window noise of about 2 %. */
    private static List<double[]> rounds(Random random, double center, int rounds) {
        List<double[]> out = new ArrayList<>();
        for (int r = 0; r < rounds; r++) {
            double roundShift = 1 + 0.02 * random.nextGaussian();
            double[] w = new double[10];
            for (int i = 0; i < w.length; i++) {
                w[i] = center * roundShift * (1 + 0.02 * random.nextGaussian());
            }
            out.add(w);
        }
        return out;
    }

    @Test
    void driftSharedWithTheControlsCancels() {
        Random random = new Random(1);
        // everything is 30 % faster at the after moment, the host included: no change of its own
        var r = DifferenceInDifferences.of(
                rounds(random, 80_000, 5),
                rounds(random, 104_000, 5),
                rounds(random, 60_000, 5),
                rounds(random, 78_000, 5),
                0.95,
                7);
        assertThat(r.controlRatio()).isCloseTo(1.3, within(0.03));
        assertThat(r.ratio()).isCloseTo(1.0, within(0.03));
        assertThat(r.low()).isLessThan(1);
        assertThat(r.high()).isGreaterThan(1);
        assertThat(r.p()).isGreaterThan(0.05);
        // the plain before/after test on the same host data sees a change that is not the host's
        assertThat(RoundTest.p(rounds(new Random(1), 80_000, 5), rounds(new Random(2), 104_000, 5)))
                .isLessThan(0.001);
    }

    @Test
    void aHalvingOfTheHostAloneIsFoundWhileTheControlsStayPut() {
        Random random = new Random(2);
        var r = DifferenceInDifferences.of(
                rounds(random, 80_000, 5),
                rounds(random, 40_000, 5),
                rounds(random, 80_000, 5),
                rounds(random, 80_000, 5),
                0.95,
                7);
        assertThat(r.ratio()).isCloseTo(0.5, within(0.02));
        assertThat(r.controlRatio()).isCloseTo(1.0, within(0.03));
        assertThat(r.high()).isLessThan(0.55);
        assertThat(r.p()).isLessThan(1e-6);
    }

    @Test
    void aTenPercentChangeUnderADriftOfFifteenPercentIsTheTenPercent() {
        Random random = new Random(3);
        var r = DifferenceInDifferences.of(
                rounds(random, 100, 6),
                rounds(random, 100 * 0.85 * 1.10, 6),
                rounds(random, 100, 6),
                rounds(random, 85, 6),
                0.95,
                7);
        assertThat(r.ratio()).isCloseTo(1.10, within(0.03));
        assertThat(r.low()).isGreaterThan(1.0);
        assertThat(r.p()).isLessThan(0.01);
    }

    @Test
    void oneRoundPerGroupHasNoDegreeOfFreedom() {
        Random random = new Random(4);
        var r = DifferenceInDifferences.of(
                rounds(random, 100, 1), rounds(random, 50, 1), rounds(random, 100, 1), rounds(random, 100, 1), 0.95, 7);
        assertThat(r.p()).isEqualTo(1.0);
    }

    @Test
    void equalTreatedAndControlGiveNoChangeExactly() {
        List<double[]> same = List.of(new double[] {1, 2, 3}, new double[] {2, 3, 4});
        var r = DifferenceInDifferences.of(same, same, same, same, 0.95, 7);
        assertThat(r.ratio()).isEqualTo(1.0);
        assertThat(r.p()).isEqualTo(1.0);
    }
}
