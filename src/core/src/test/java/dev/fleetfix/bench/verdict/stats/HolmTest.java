package dev.fleetfix.bench.verdict.stats;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

class HolmTest {

    @Test
    void adjustsStepDownAndKeepsTheOrderMonotone() {
        // sorted: 0.005*4 = 0.02, 0.01*3 = 0.03, 0.03*2 = 0.06, 0.04*1 = 0.04 -> raised to 0.06
        double[] adjusted = Holm.adjust(new double[] {0.01, 0.04, 0.03, 0.005});

        assertThat(adjusted[0]).isCloseTo(0.03, within(1e-12));
        assertThat(adjusted[1]).isCloseTo(0.06, within(1e-12));
        assertThat(adjusted[2]).isCloseTo(0.06, within(1e-12));
        assertThat(adjusted[3]).isCloseTo(0.02, within(1e-12));
    }

    @Test
    void neverExceedsOneAndRejectsNonProbabilities() {
        assertThat(Holm.adjust(new double[] {0.6, 0.9})).containsExactly(1, 1);
        assertThat(Holm.adjust(new double[0])).isEmpty();
        assertThatThrownBy(() -> Holm.adjust(new double[] {Double.NaN})).hasMessageContaining("p-value");
    }
}
