package dev.fleetfix.bench.verdict;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.fleetfix.bench.plan.SweepPoint;
import dev.fleetfix.bench.verdict.DesignCheck.Design;
import dev.fleetfix.bench.verdict.DesignCheck.Reach;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;

/**
 * One rule of the design check each, on known inputs with answers worked by hand: with {@code B} batches a side
 * that do not overlap, the exact rank test's one-sided p is {@code 1 / C(2B, B)} (one arrangement of the ranks in
 * all), a call's two-sided p twice that.
 */
class DesignCheckTest {
    private static Reach reach(int rounds, int perRound, int figures) {
        return DesignCheck.of(new Design(rounds, perRound, figures, 0.01, 0.05));
    }

    @Test
    void threeRoundsOfTwoBatchesCannotCallAnyChange() {
        // B = 6: 2 / C(12, 6) = 2 / 924 = 0.0022, Holm's first step over 6 figures at 0.01 needs below 0.0017
        Reach r = reach(3, 2, 6);
        assertThat(r.smallestP()).isCloseTo(2 / 924.0, within(1e-12));
        assertThat(r.needed()).isCloseTo(0.01 / 6, within(1e-12));
        assertThat(r.canCall()).isFalse();
        // its equivalence tests reach 1 / 924, below 0.05
        assertThat(r.smallestNoChangeP()).isCloseTo(1 / 924.0, within(1e-12));
        assertThat(r.canSayNoChange()).isTrue();
        assertThat(r.problem("rounds"))
                .hasValue("rounds: 3 rounds a side (6 batches) cannot call any change: batches that do not overlap"
                        + " give the exact rank test p 0.0022 at the very least, and Holm over up to 6 figures at"
                        + " level 0.01 needs below 0.0017; 4 rounds a side could");
    }

    @Test
    void theShippedFourRoundsOfTwoBatchesCanSayEveryWord() {
        // B = 8: 2 / C(16, 8) = 2 / 12,870 = 0.000155 < 0.0017; 1 / 12,870 < 0.05
        Reach r = reach(4, 2, 6);
        assertThat(r.smallestP()).isCloseTo(2 / 12_870.0, within(1e-12));
        assertThat(r.sound()).isTrue();
        assertThat(r.problem("rounds")).isEmpty();
        assertThat(r.roundsThatCould()).isEqualTo(OptionalInt.of(4));
    }

    @Test
    void threeBatchesASideCannotSayNoChangeDetected() {
        // B = 3: one-sided 1 / C(6, 3) = 1 / 20 = 0.05, not below its level 0.05; a call 0.1
        Reach r = reach(3, 1, 6);
        assertThat(r.smallestNoChangeP()).isCloseTo(0.05, within(1e-12));
        assertThat(r.canSayNoChange()).isFalse();
        assertThat(r.canCall()).isFalse();
        // below 5 batches a side no figure decides at all, which the refusal says first
        assertThat(r.problem("rounds").orElseThrow())
                .isEqualTo("rounds: 3 rounds a side (3 batches) cannot decide any figure: 5 batches a side are the"
                        + " fewest the exact rank test judges; 7 rounds a side could");
        // 5 batches decide, and their equivalence tests reach 1 / C(10, 5) = 1 / 252, but a call only 0.0079
        assertThat(reach(5, 1, 6).problem("rounds").orElseThrow())
                .isEqualTo("rounds: 5 rounds a side (5 batches) cannot call any change: batches that do not overlap"
                        + " give the exact rank test p 0.0079 at the very least, and Holm over up to 6 figures at level"
                        + " 0.01 needs below 0.0017; 7 rounds a side could");
    }

    @Test
    void oneSampleARoundNeedsSevenRoundsOverSixFigures() {
        // redis-benchmark, one batch a round: B = 6 gives 0.0022 (cannot), B = 7 gives 2 / 3,432 = 0.00058 (can)
        assertThat(reach(6, 1, 6).canCall()).isFalse();
        assertThat(reach(7, 1, 6).smallestP()).isCloseTo(2 / 3_432.0, within(1e-12));
        assertThat(reach(7, 1, 6).sound()).isTrue();
        assertThat(reach(2, 1, 6).roundsThatCould()).isEqualTo(OptionalInt.of(7));
    }

    @Test
    void fewerThanFiveBatchesASideDecideNothing() {
        // a figure with fewer than 5 samples a side is not decisive, whatever the test could reach
        Reach r = reach(2, 2, 1);
        assertThat(r.canCall()).isFalse();
        assertThat(r.canSayNoChange()).isFalse();
        assertThat(r.problem("rounds"))
                .hasValue("rounds: 2 rounds a side (4 batches) cannot decide any figure: 5 batches a side are the"
                        + " fewest the exact rank test judges; 3 rounds a side could");
    }

    private static Reach sweep(int rounds, int perRound, int comparisons) {
        return DesignCheck.of(new Design(rounds, perRound, 6, 0.01, 0.05, OptionalInt.of(comparisons)));
    }

    @Test
    void theShippedSweepOfFiveRoundsCanCallOverItsSixteenComparisons() {
        // 6 sizes at both TCP_NODELAY settings: 16 comparisons, each at 0.01 / 16; Holm's first step over 6 figures
        // needs below 0.01 / 96 = 0.000104. B = 10: 2 / C(20, 10) = 2 / 184,756 = 0.0000108
        Reach r = sweep(5, 2, 16);
        assertThat(r.needed()).isCloseTo(0.01 / 96, within(1e-12));
        assertThat(r.smallestP()).isCloseTo(2 / 184_756.0, within(1e-15));
        assertThat(r.sound()).isTrue();
        assertThat(r.problem("rounds")).isEmpty();
        // B = 8: 2 / 12,870 = 0.000155, not below 0.000104: 4 rounds a point are refused, naming 5
        assertThat(sweep(4, 2, 16).problem("--rounds"))
                .hasValue("--rounds: 4 rounds a point (8 batches) cannot call any change: batches that do not overlap"
                        + " give the exact rank test p 0.00016 at the very least, and Holm over up to 6 figures at"
                        + " level 0.01 split over 16 comparisons needs below 0.0001; 5 rounds a point could");
    }

    @Test
    void aSweepOfTwoRoundsAPointIsRefusedForDecidingNothing() {
        // the sweep that ran and answered only "no figure can decide": 2 rounds of 2 batches, 4 a point
        assertThat(sweep(2, 2, 1).problem("rounds"))
                .hasValue("rounds: 2 rounds a point (4 batches) cannot decide any figure: 5 batches a point are the"
                        + " fewest the exact rank test judges; 4 rounds a point could");
        // two points, one comparison at the whole 0.01: B = 6 gives 0.0022, above 0.01 / 6 = 0.0017; B = 8 can
        assertThat(sweep(3, 2, 1).canCall()).isFalse();
        assertThat(sweep(3, 2, 1).canSayNoChange()).isTrue();
        assertThat(sweep(4, 2, 1).sound()).isTrue();
    }

    @Test
    void aSweepWithoutWindowsNeedsSevenRoundsAPointForOneComparison() {
        // redis-benchmark, one batch a round: as its before/after pair, 7 rounds (2 / 3,432 = 0.00058 < 0.0017);
        // over 5 comparisons (0.01 / 30 = 0.00033) 7 are not enough, and 8 (2 / 12,870) are
        assertThat(sweep(5, 1, 1).roundsThatCould()).isEqualTo(OptionalInt.of(7));
        assertThat(sweep(7, 1, 5).canCall()).isFalse();
        assertThat(sweep(7, 1, 5).roundsThatCould()).isEqualTo(OptionalInt.of(8));
    }

    @Test
    void aSweepCountsItsComparisonsAsItJudgesThem() {
        // sizes in a row at each setting, then on against off at each size
        List<SweepPoint> shipped = new ArrayList<>();
        for (boolean on : List.of(true, false)) {
            for (int size : List.of(64, 512, 1024, 2048, 4096, 8192)) {
                shipped.add(new SweepPoint(size, Optional.of(on)));
            }
        }
        assertThat(Sweep.comparisons(shipped)).isEqualTo(5 + 5 + 6);
        assertThat(Sweep.comparisons(
                        List.of(new SweepPoint(1024, Optional.empty()), new SweepPoint(64, Optional.empty()))))
                .isEqualTo(1);
        List<SweepPoint> twoByTwo = new ArrayList<>();
        for (boolean on : List.of(false, true)) {
            twoByTwo.add(new SweepPoint(8192, Optional.of(on)));
            twoByTwo.add(new SweepPoint(64, Optional.of(on)));
        }
        // 64 B to 8192 B at each setting, on against off at each size
        assertThat(Sweep.comparisons(twoByTwo)).isEqualTo(4);
    }

    @Test
    void fewerFiguresAskLess() {
        // over 2 figures Holm's first step needs 0.005: 5 batches (2 / 252 = 0.0079) still cannot, 6 (0.0022) can
        assertThat(reach(5, 1, 2).canCall()).isFalse();
        assertThat(reach(6, 1, 2).canCall()).isTrue();
    }

    @Test
    void aDesignOfNoRoundsIsRefusedWhenBuilt() {
        assertThatThrownBy(() -> new Design(0, 2, 6, 0.01, 0.05)).hasMessageContaining("at least 1");
        assertThatThrownBy(() -> new Design(4, 2, 6, 0.01, 0.05, OptionalInt.of(0)))
                .hasMessageContaining("a sweep compares at least 1 pair");
        assertThatThrownBy(() -> new Design(4, 2, 6, 0.01, 1)).hasMessageContaining("levels must be in (0, 1)");
    }
}
