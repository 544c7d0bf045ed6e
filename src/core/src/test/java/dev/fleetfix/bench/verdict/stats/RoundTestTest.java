package dev.fleetfix.bench.verdict.stats;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import org.junit.jupiter.api.Test;

class RoundTestTest {

    @Test
    void studentTTailsMatchTables() {
        assertThat(RoundTest.twoSidedT(2.776, 4)).isCloseTo(0.05, within(1e-4));
        assertThat(RoundTest.twoSidedT(12.706, 1)).isCloseTo(0.05, within(1e-4));
        assertThat(RoundTest.twoSidedT(1.96, 1e6)).isCloseTo(0.05, within(1e-4));
        assertThat(RoundTest.twoSidedT(0, 5)).isCloseTo(1, within(1e-12));
    }

    @Test
    void testsTheRoundsLogMedians() {
        // log medians: before 0, 0.1, 0.2 (mean 0.1); after 0.3, 0.4, 0.5 (mean 0.4); pooled sd 0.1
        // t = 0.3 / (0.1 * sqrt(2/3)) = 3.674 with 4 df: p = 0.0213
        List<double[]> before = List.of(new double[] {1}, new double[] {Math.exp(0.1)}, new double[] {Math.exp(0.2)});
        List<double[]> after =
                List.of(new double[] {Math.exp(0.3)}, new double[] {Math.exp(0.4)}, new double[] {Math.exp(0.5)});

        assertThat(RoundTest.p(before, after)).isCloseTo(0.0213, within(2e-4));
        assertThat(RoundTest.p(before.subList(0, 1), after)).isEqualTo(1);
    }
}
