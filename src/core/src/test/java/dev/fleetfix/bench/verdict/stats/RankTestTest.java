package dev.fleetfix.bench.verdict.stats;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.Random;
import org.apache.commons.statistics.inference.AlternativeHypothesis;
import org.apache.commons.statistics.inference.MannWhitneyUTest;
import org.apache.commons.statistics.inference.PValueMethod;
import org.junit.jupiter.api.Test;

class RankTestTest {

    /**
     * The plain test is ours because the clustered one needs its z and variance, which Commons' does not give; on
     * the same samples, ties included, the two agree on U and p.
     */
    @Test
    void agreesWithCommonsStatisticsMannWhitney() {
        MannWhitneyUTest commons =
                MannWhitneyUTest.withDefaults().with(PValueMethod.ASYMPTOTIC).with(AlternativeHypothesis.TWO_SIDED);
        Random random = new Random(7);
        for (int k = 0; k < 20; k++) {
            double[] a = new double[8 + random.nextInt(30)];
            double[] b = new double[8 + random.nextInt(30)];
            for (int i = 0; i < a.length; i++) {
                a[i] = random.nextInt(20); // small integers: many ties
            }
            for (int i = 0; i < b.length; i++) {
                b[i] = random.nextInt(20) + k % 4;
            }
            MannWhitneyUTest.Result expected = commons.test(a, b);
            RankTest.Result ours = RankTest.mannWhitney(a, b);

            assertThat(ours.u()).isEqualTo(expected.getStatistic());
            assertThat(ours.p()).isCloseTo(expected.getPValue(), within(1e-12));
        }
    }

    @Test
    void completelySeparatedSamplesMatchTheTextbookValue() {
        // U = 0; mean 12.5; sd = sqrt(25/12 * 11) = 4.787; z = (12.5 - 0.5) / 4.787 = 2.507
        RankTest.Result r = RankTest.mannWhitney(new double[] {1, 2, 3, 4, 5}, new double[] {6, 7, 8, 9, 10});

        assertThat(r.u()).isZero();
        assertThat(r.z()).isCloseTo(-2.507, within(1e-3));
        assertThat(r.p()).isCloseTo(0.012186, within(1e-5));
    }

    @Test
    void tiesShrinkTheVarianceAsTheTieCorrectionSays() {
        // same value as scipy.stats.mannwhitneyu(method="asymptotic", use_continuity=True): 0.165140
        RankTest.Result r = RankTest.mannWhitney(new double[] {1, 1, 2, 2, 3, 5}, new double[] {2, 2, 3, 3, 4, 4, 6});

        assertThat(r.u()).isEqualTo(11);
        assertThat(r.p()).isCloseTo(0.165140, within(1e-5));
    }

    @Test
    void equalSamplesAndAllTiedSamplesGiveNoEvidence() {
        double[] same = {3, 1, 4, 1, 5, 9, 2, 6};
        assertThat(RankTest.mannWhitney(same, same.clone()).p()).isEqualTo(1);
        assertThat(RankTest.mannWhitney(new double[] {7, 7, 7}, new double[] {7, 7})
                        .p())
                .isEqualTo(1);
    }

    @Test
    void theNormalTailIsAccurate() {
        assertThat(Normal.upperTail(0)).isCloseTo(0.5, within(1e-7));
        assertThat(Normal.upperTail(1.959964)).isCloseTo(0.025, within(1e-7));
        assertThat(Normal.upperTail(-1.959964)).isCloseTo(0.975, within(1e-7));
        assertThat(Normal.upperTail(3.090232)).isCloseTo(0.001, within(1e-8));
    }
}
