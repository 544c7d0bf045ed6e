package dev.fleetfix.bench.verdict;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.fleetfix.bench.Metric;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The proposed judge on samples whose answers are worked by hand. */
class BatchJudgeTest {
    /** {@code rounds} rounds of two windows each: {@code value × (1 ± step·r)}, batches one window apart. */
    private static List<double[]> rounds(int rounds, double value, double step) {
        List<double[]> out = new ArrayList<>();
        for (int r = 0; r < rounds; r++) {
            out.add(new double[] {value * (1 + step * r), value * (1 + step * r + step / 2)});
        }
        return out;
    }

    @Test
    void eachRoundIsCutIntoBatchesSummarisedByTheMedianOfTheirLogs() {
        double[] b = BatchJudge.batches(List.of(new double[] {1, Math.E, Math.E * Math.E, 1}), 2);
        // batches {1, e} and {e², 1}: medians of logs 0.5 and 1
        assertThat(b).containsExactly(0.5, 1.0);
        // a round shorter than its batches makes one batch a window
        assertThat(BatchJudge.batches(List.of(new double[] {Math.E}), 4)).containsExactly(1.0);
    }

    @Test
    void aCollapsePastTheFloorIsRegressedAndTheSameLoadIsNoChange() {
        // 4 rounds of 2 batches a side: 8 against 8, rps down 87 %, every batch within ±1.4 % of its side
        BatchJudge judge = new BatchJudge(2, 0.01, 0.05, 0.95);
        BatchJudge.Result collapse = judge.judge(
                List.of(new BatchJudge.Figure(Metric.RPS, rounds(4, 44_000, 0.004), rounds(4, 5_720, 0.004), 0.2)));
        BatchJudge.Judged rps = collapse.figures().get(0);
        assertThat(rps.ratio()).isCloseTo(0.13, within(0.001));
        // no batch of the after side reaches 80 % of any before batch: the exact two-sided p is 2 / C(16, 8)
        assertThat(rps.p()).isCloseTo(2 / 12_870.0, within(1e-12));
        assertThat(rps.verdict()).isEqualTo(Verdict.REGRESSED);
        assertThat(collapse.verdict()).isEqualTo(Verdict.REGRESSED);

        BatchJudge.Result same = judge.judge(
                List.of(new BatchJudge.Figure(Metric.RPS, rounds(4, 44_000, 0.004), rounds(4, 44_100, 0.004), 0.2)));
        // every batch of each side within 20 % of every batch of the other: both one-sided tests at their extreme
        assertThat(same.figures().get(0).equivalenceP()).isCloseTo(1 / 12_870.0, within(1e-12));
        assertThat(same.verdict()).isEqualTo(Verdict.NO_CHANGE_DETECTED);
    }

    @Test
    void aChangeInsideTheFloorIsNotCalledHoweverClear() {
        // p99 up 30 % with no overlap at all: past no change, but not past its 50 % floor
        BatchJudge.Result r = BatchJudge.PROPOSED.judge(
                List.of(new BatchJudge.Figure(Metric.P99, rounds(4, 1.0, 0.004), rounds(4, 1.3, 0.004), 0.5)));
        assertThat(r.figures().get(0).p()).isEqualTo(1.0);
        assertThat(r.verdict()).isEqualTo(Verdict.NO_CHANGE_DETECTED);
    }
}
