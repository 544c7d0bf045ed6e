package dev.fleetfix.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class MainTest {
    @Test
    void runs() {
        assertThat(1).isEqualTo(1);
    }
}
