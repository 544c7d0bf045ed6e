package dev.fleetfix.bench.verdict;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.fleetfix.bench.verdict.DesignCheck.Design;
import dev.fleetfix.bench.verdict.DesignCheck.Reach;
import dev.fleetfix.bench.verdict.DesignCheck.Test;
import java.util.OptionalInt;

/** One rule of the design check each, on known inputs with answers worked by hand. */
class DesignCheckTest {
    private static Reach reach(Test test, int rounds, int perRound, int figures) {
        return DesignCheck.of(new Design(test, rounds, perRound, figures, 0.01, 0.05));
    }

    @org.junit.jupiter.api.Test
    void threeRoundsOfTenWindowsCannotCallAnyChange() {
        // ranks 1..30 against 31..60, each side's rounds of ten in a row: between-round mean square 1000, within
        // 9.17, ICC 0.915, design effect 9.24; z = 449.5 / sqrt(4575 × 9.24) = 2.19, p 0.0288 > 0.01 / 6
        Reach r = reach(Test.ROUNDS_OF_WINDOWS, 3, 10, 6);
        assertThat(r.smallestP()).isCloseTo(0.0288, within(0.0005));
        assertThat(r.needed()).isCloseTo(0.01 / 6, within(1e-12));
        assertThat(r.canCall()).isFalse();
        assertThat(r.canSayNoChange()).isTrue();
        assertThat(r.problem("rounds")).hasValueSatisfying(m -> assertThat(m)
                .startsWith("rounds: 3 rounds a side of 10 windows cannot call any change: sides whose"
                        + " rounds do not overlap give the rank test p 0.029 at the very least, and Holm over"
                        + " up to 6 figures at level 0.01 needs below 0.0017; ")
                .endsWith(r.roundsThatCould().getAsInt() + " rounds a side could"));
    }

    @org.junit.jupiter.api.Test
    void theRoundsThatCouldAreTheFirstThatReachHolmsFirstStep() {
        Reach r = reach(Test.ROUNDS_OF_WINDOWS, 3, 10, 6);
        int enough = r.roundsThatCould().getAsInt();
        assertThat(reach(Test.ROUNDS_OF_WINDOWS, enough, 10, 6).smallestP()).isLessThan(0.01 / 6);
        assertThat(reach(Test.ROUNDS_OF_WINDOWS, enough - 1, 10, 6).smallestP()).isGreaterThanOrEqualTo(0.01 / 6);
        assertThat(reach(Test.ROUNDS_OF_WINDOWS, enough, 10, 6).problem("rounds"))
                .isEmpty();
    }

    @org.junit.jupiter.api.Test
    void oneRoundASideDecidesNothing() {
        Reach r = reach(Test.ROUNDS_OF_WINDOWS, 1, 10, 6);
        assertThat(r.canCall()).isFalse();
        assertThat(r.canSayNoChange()).isFalse();
        assertThat(r.problem("rounds").orElseThrow())
                .contains("cannot call any change", "cannot say no change detected");
    }

    @org.junit.jupiter.api.Test
    void oneSampleARoundNeedsFiveRoundsToDecideAndEightToCall() {
        // plain rank test, R against R: z = (R²/2 − 0.5) / sqrt(R² (2R + 1) / 12); R = 7: z 3.07, p 0.0022;
        // R = 8: z 3.31, p 0.00094 (Holm's first step over 6 figures: 0.0017)
        assertThat(reach(Test.ONE_SAMPLE_A_ROUND, 3, 1, 6).canSayNoChange()).isFalse();
        assertThat(reach(Test.ONE_SAMPLE_A_ROUND, 5, 1, 6).canSayNoChange()).isTrue();
        assertThat(reach(Test.ONE_SAMPLE_A_ROUND, 7, 1, 6).smallestP()).isCloseTo(0.0022, within(0.0001));
        assertThat(reach(Test.ONE_SAMPLE_A_ROUND, 8, 1, 6).smallestP()).isCloseTo(0.00094, within(0.00002));
        assertThat(reach(Test.ONE_SAMPLE_A_ROUND, 3, 1, 6).roundsThatCould()).isEqualTo(OptionalInt.of(8));
    }

    @org.junit.jupiter.api.Test
    void batchesNeedSevenASideOverSixFigures() {
        // exact: 2 / C(2B, B); B = 6: 2 / 924 = 0.0022 > 0.0017; B = 7: 2 / 3432 = 0.00058
        Reach three = reach(Test.BATCHES, 3, 1, 6);
        assertThat(three.smallestP()).isCloseTo(0.1, within(1e-12));
        assertThat(three.canCall()).isFalse();
        // the equivalence test's smallest p is 1 / 20 = 0.05: not below its level 0.05
        assertThat(three.smallestNoChangeP()).isCloseTo(0.05, within(1e-12));
        assertThat(three.canSayNoChange()).isFalse();
        assertThat(three.roundsThatCould()).isEqualTo(OptionalInt.of(7));
        assertThat(reach(Test.BATCHES, 6, 1, 6).canCall()).isFalse();
        assertThat(reach(Test.BATCHES, 7, 1, 6).sound()).isTrue();
        assertThat(three.problem("rounds").orElseThrow())
                .isEqualTo("rounds: 3 batches a side cannot call any change: batches that do not overlap give the"
                        + " exact rank test p 0.1 at the very least, and Holm over up to 6 figures at level 0.01"
                        + " needs below 0.0017, and cannot say no change detected: its equivalence test reaches p"
                        + " 0.05 at the very least, above its level 0.05; 7 batches a side could");
    }

    @org.junit.jupiter.api.Test
    void fewerFiguresAskLess() {
        // over 2 figures Holm's first step needs 0.005: 5 batches (2 / 252 = 0.0079) still cannot, 6 (0.0022) can
        assertThat(reach(Test.BATCHES, 5, 1, 2).canCall()).isFalse();
        assertThat(reach(Test.BATCHES, 6, 1, 2).canCall()).isTrue();
    }
}
