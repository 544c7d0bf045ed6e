package dev.fleetfix.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

/** The binomial tails the lab tests' bounds rest on, against values computed by hand. */
class VerdictRateTest {
    @Test
    void tailsMatchTheClosedForms() {
        // 1 - 0.99^20 - 20 × 0.01 × 0.99^19
        assertThat(VerdictRate.atLeast(20, 0.01, 2)).isCloseTo(0.016859, within(1e-6));
        // 3 × 0.01^2 × 0.99 + 0.01^3
        assertThat(VerdictRate.atLeast(3, 0.01, 2)).isCloseTo(0.000298, within(1e-6));
        assertThat(VerdictRate.atLeast(5, 0.3, 0)).isCloseTo(1, within(1e-12));
    }

    @Test
    void theBoundIsTheFewestThatKeepsTheFalseFailureUnderItsShare() {
        assertThat(VerdictRate.allowed(3, 0.01, 0.0004)).isEqualTo(1);
        assertThat(VerdictRate.allowed(20, 0.01, 0.0004)).isEqualTo(3);
        assertThat(VerdictRate.atLeast(20, 0.01, 4)).isLessThan(0.0004);
        assertThat(VerdictRate.atLeast(20, 0.01, 3)).isGreaterThan(0.0004);
    }
}
