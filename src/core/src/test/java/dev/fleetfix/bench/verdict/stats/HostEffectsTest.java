package dev.fleetfix.bench.verdict.stats;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import org.junit.jupiter.api.Test;

class HostEffectsTest {

    @Test
    void geometricMeanWithAStudentTIntervalOnTheLogScale() {
        // logs 0.1, 0.2, 0.3: mean 0.2, sd 0.1, half width 4.303 * 0.1 / sqrt(3) = 0.24843
        HostEffects e = HostEffects.of(List.of(Math.exp(0.1), Math.exp(0.2), Math.exp(0.3)));

        assertThat(e.hosts()).isEqualTo(3);
        assertThat(e.ratio()).isCloseTo(Math.exp(0.2), within(1e-9));
        assertThat(Math.log(e.low())).isCloseTo(-0.04843, within(1e-4));
        assertThat(Math.log(e.high())).isCloseTo(0.44843, within(1e-4));
        assertThat(e.excludesOne()).isFalse();
        assertThat(e.up()).isEqualTo(3);
        assertThat(e.signP()).isCloseTo(0.25, within(1e-12));
    }

    @Test
    void consistentHostsExcludeOne() {
        HostEffects e = HostEffects.of(List.of(0.12, 0.15, 0.11));
        assertThat(e.excludesOne()).isTrue();
        assertThat(e.high()).isLessThan(0.3);
    }

    @Test
    void exactSignTest() {
        assertThat(HostEffects.signTest(10, 0)).isCloseTo(2.0 / 1024, within(1e-12));
        assertThat(HostEffects.signTest(8, 2)).isCloseTo(2 * 56.0 / 1024, within(1e-12));
        assertThat(HostEffects.signTest(5, 5)).isEqualTo(1);
        assertThat(HostEffects.signTest(0, 0)).isEqualTo(1);
    }

    @Test
    void oneHostHasNoInterval() {
        HostEffects e = HostEffects.of(List.of(0.5));
        assertThat(e.low()).isNaN();
        assertThat(e.excludesOne()).isFalse();
    }

    @Test
    void tQuantilesBeyondTheTableStayClose() {
        assertThat(HostEffects.t975(30)).isEqualTo(2.042);
        assertThat(HostEffects.t975(60)).isCloseTo(2.000, within(0.01));
        assertThat(HostEffects.t975(120)).isCloseTo(1.980, within(0.01));
    }
}
