package dev.fleetfix.bench.verdict;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.fleetfix.bench.verdict.DesignCheck.Design;
import dev.fleetfix.bench.verdict.DesignCheck.Reach;
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
        assertThat(r.problem("rounds").orElseThrow())
                .isEqualTo("rounds: 3 rounds a side (3 batches) cannot call any change: batches that do not overlap"
                        + " give the exact rank test p 0.1 at the very least, and Holm over up to 6 figures at level"
                        + " 0.01 needs below 0.0017, and cannot say no change detected: its equivalence tests reach p"
                        + " 0.05 at the very least, not below their level 0.05; 7 rounds a side could");
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
        assertThat(r.problem("rounds").orElseThrow())
                .startsWith("rounds: 2 rounds a side (4 batches) cannot call any change")
                .endsWith("3 rounds a side could");
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
        assertThatThrownBy(() -> new Design(4, 2, 6, 0.01, 1)).hasMessageContaining("levels must be in (0, 1)");
    }
}
