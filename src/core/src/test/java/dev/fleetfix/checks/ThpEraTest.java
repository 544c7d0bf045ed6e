package dev.fleetfix.checks;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Optional;
import org.junit.jupiter.api.Test;

class ThpEraTest {

    @Test
    void theKernelReleaseDecidesHowAHugePageIsCopiedAfterFork() {
        assertThat(ThpEra.of("5.7.19", Optional.empty())).isEqualTo(ThpEra.Effect.FORK_SPIKES);
        assertThat(ThpEra.of("3.10.0-1160.el7.x86_64", Optional.of(false))).isEqualTo(ThpEra.Effect.FORK_SPIKES);
        assertThat(ThpEra.of("5.8.0", Optional.empty())).isEqualTo(ThpEra.Effect.MEMORY_ONLY);
        assertThat(ThpEra.of("6.18.1-amd64", Optional.of(false))).isEqualTo(ThpEra.Effect.MEMORY_ONLY);
        assertThat(ThpEra.of("unknown", Optional.empty())).isEqualTo(ThpEra.Effect.UNKNOWN_KERNEL);
    }

    @Test
    void redisThatOptsOutIsNotReachedWhateverTheKernel() {
        assertThat(ThpEra.of("4.19.0", Optional.of(true))).isEqualTo(ThpEra.Effect.OPTED_OUT);
        assertThat(ThpEra.expectation("4.19.0", Optional.of(true))).contains("does not reach it");
        assertThat(ThpEra.expectation("6.1.0", Optional.of(false))).contains("expect no latency change from THP");
        assertThat(ThpEra.expectation("4.19.0", Optional.of(false))).contains("expect the fork-time tail");
    }
}
