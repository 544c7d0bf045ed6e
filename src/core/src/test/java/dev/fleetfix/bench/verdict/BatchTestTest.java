package dev.fleetfix.bench.verdict;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The batches' test of one figure on samples whose answers are worked by hand. */
class BatchTestTest {
    /** {@code rounds} rounds of two windows each: {@code value × (1 ± step·r)}, batches one window apart. */
    private static List<double[]> rounds(int rounds, double value, double step) {
        List<double[]> out = new ArrayList<>();
        for (int r = 0; r < rounds; r++) {
            out.add(new double[] {value * (1 + step * r), value * (1 + step * r + step / 2)});
        }
        return out;
    }

    private static BatchTest.Result test(List<double[]> before, List<double[]> after, double floor) {
        return BatchTest.of(BatchTest.batches(before, 2), BatchTest.batches(after, 2), floor, 0.95);
    }

    @Test
    void eachRoundIsCutIntoBatchesSummarisedByTheLogOfTheirMean() {
        double[] b = BatchTest.batches(List.of(new double[] {1, 3, 2, 2, 8}), 2);
        // batches {1, 3} and {2, 2, 8}: means 2 and 4 (the median of the second, 2, would hide its spike)
        assertThat(b).containsExactly(Math.log(2), Math.log(4));
        // windows with nothing above the percentile (0) count as the smallest positive value
        assertThat(BatchTest.batches(List.of(new double[] {0, 0}), 1)).containsExactly(Math.log(Double.MIN_NORMAL));
        // a round shorter than its batches makes one batch a window
        assertThat(BatchTest.batches(List.of(new double[] {Math.E}), 4)).containsExactly(1.0);
        // ten windows in two batches of five; eleven: five and six
        assertThat(BatchTest.bounds(10, 2)).containsExactly(new int[] {0, 5}, new int[] {5, 10});
        assertThat(BatchTest.bounds(11, 2)).containsExactly(new int[] {0, 5}, new int[] {5, 11});
    }

    @Test
    void aCollapsePastTheFloorReachesTheSmallestPAndTheSameLoadIsEquivalent() {
        // 4 rounds of 2 batches a side: 8 against 8, rps down 87 %, every batch within ±1.4 % of its side
        BatchTest.Result collapse = test(rounds(4, 44_000, 0.004), rounds(4, 5_720, 0.004), 0.2);
        assertThat(collapse.ratio()).isCloseTo(0.13, within(0.001));
        // no batch of the after side reaches 80 % of any before batch: the exact two-sided p is 2 / C(16, 8)
        assertThat(collapse.p()).isCloseTo(2 / 12_870.0, within(1e-12));
        assertThat(collapse.high()).isLessThan(0.8);

        BatchTest.Result same = test(rounds(4, 44_000, 0.004), rounds(4, 44_100, 0.004), 0.2);
        // every batch of each side within 20 % of every batch of the other: both one-sided tests at their extreme
        assertThat(same.equivalenceP()).isCloseTo(1 / 12_870.0, within(1e-12));
        assertThat(same.p()).isEqualTo(1.0);
    }

    @Test
    void aChangeInsideTheFloorIsNotBeyondItHoweverClear() {
        // p99 up 30 % with no overlap at all: past no change, but not past its 50 % floor, and shown within it
        BatchTest.Result r = test(rounds(4, 1.0, 0.004), rounds(4, 1.3, 0.004), 0.5);
        assertThat(r.p()).isEqualTo(1.0);
        assertThat(r.equivalenceP()).isCloseTo(1 / 12_870.0, within(1e-12));
        assertThat(r.ratio()).isCloseTo(1.3, within(0.01));
    }
}
