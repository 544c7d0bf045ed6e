package dev.fleetfix.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

class ColorsTest {
    @Test
    void coloursOnlyOnACapableTerminal() {
        assertThat(Colors.enabled(false, true, Map.of("TERM", "xterm-256color")))
                .isTrue();
        assertThat(Colors.enabled(true, true, Map.of("TERM", "xterm-256color")))
                .as("--no-color")
                .isFalse();
        assertThat(Colors.enabled(false, false, Map.of("TERM", "xterm-256color")))
                .as("piped")
                .isFalse();
        assertThat(Colors.enabled(false, true, Map.of("TERM", "dumb"))).isFalse();
        assertThat(Colors.enabled(false, true, Map.of())).as("no TERM").isFalse();
        assertThat(Colors.enabled(false, true, Map.of("TERM", "xterm", "NO_COLOR", "1")))
                .isFalse();
    }
}
