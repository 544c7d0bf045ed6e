package dev.fleetfix.bench.verdict.stats;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

/** Known answers of the exact rank tests against a margin: arrangements counted by hand. */
class ShiftedRankTestTest {
    private static final double[] LOW = {1, 2, 3};
    private static final double[] HIGH = {10, 11, 12};

    @Test
    void theSmallestPIsOneArrangementInAllOfThem() {
        // C(6, 3) = 20, C(8, 4) = 70, C(16, 8) = 12,870 ways to place the ranks
        assertThat(ShiftedRankTest.smallestOneSided(3, 3)).isCloseTo(1 / 20.0, within(1e-12));
        assertThat(ShiftedRankTest.smallestOneSided(4, 4)).isCloseTo(1 / 70.0, within(1e-12));
        assertThat(ShiftedRankTest.smallestOneSided(8, 8)).isCloseTo(1 / 12_870.0, within(1e-12));
        assertThat(ShiftedRankTest.smallestTwoSided(3, 3)).isCloseTo(0.1, within(1e-12));
        assertThat(ShiftedRankTest.smallestTwoSided(5, 5)).isCloseTo(2 / 252.0, within(1e-12));
    }

    @Test
    void aShiftBeyondTheMarginIsTestedAfterTakingTheMarginOff() {
        // after − 8.5 = {1.5, 2.5, 3.5} against {1, 2, 3}: 6 of 9 pairs above; P(U >= 6) = 7 / 20
        assertThat(ShiftedRankTest.above(HIGH, LOW, 8.5)).isCloseTo(7 / 20.0, within(1e-12));
        assertThat(ShiftedRankTest.above(HIGH, LOW, 0)).isCloseTo(1 / 20.0, within(1e-12));
        // a shift of 9 is not beyond a margin of 20
        assertThat(ShiftedRankTest.above(HIGH, LOW, 20)).isEqualTo(1.0);
        assertThat(ShiftedRankTest.beyond(HIGH, LOW, -20, 20)).isEqualTo(1.0);
        assertThat(ShiftedRankTest.beyond(HIGH, LOW, -1, 1)).isCloseTo(2 / 20.0, within(1e-12));
        assertThat(ShiftedRankTest.beyond(LOW, HIGH, -1, 1)).isCloseTo(2 / 20.0, within(1e-12));
    }

    @Test
    void equivalenceNeedsBothOneSidedTests() {
        // a shift of 9 well within ±20: both one-sided tests at their extreme, 1 / 20 each
        assertThat(ShiftedRankTest.within(HIGH, LOW, -20, 20)).isCloseTo(1 / 20.0, within(1e-12));
        // within +20 but not within +5: the upper test cannot reject
        assertThat(ShiftedRankTest.within(HIGH, LOW, -5, 5)).isEqualTo(1.0);
    }

    @Test
    void theShiftIsTheMedianOfThePairwiseDifferences() {
        // differences 7..11, median of the nine: 9
        assertThat(ShiftedRankTest.shift(HIGH, LOW)).isEqualTo(9.0);
    }

    @Test
    void theIntervalTakesTheOrderStatisticsTheExactTableGives() {
        double[] a = new double[8];
        double[] b = new double[8];
        for (int i = 0; i < 8; i++) {
            a[i] = 100 + i; // differences 100 - 7 .. 107: 64 of them
            b[i] = i;
        }
        // 8 against 8 at 95 %: the two-sided critical U is 13, so the interval runs from the 14th smallest
        // difference to the 14th largest
        double[] d = new double[64];
        int k = 0;
        for (double x : a) {
            for (double y : b) {
                d[k++] = x - y;
            }
        }
        java.util.Arrays.sort(d);
        assertThat(ShiftedRankTest.interval(a, b, 0.95)).containsExactly(d[13], d[50]);
        // 3 against 3 cannot cover 95 %: the smallest two-sided p is 0.1
        assertThat(ShiftedRankTest.interval(HIGH, LOW, 0.95))
                .containsExactly(Double.NEGATIVE_INFINITY, Double.POSITIVE_INFINITY);
    }
}
