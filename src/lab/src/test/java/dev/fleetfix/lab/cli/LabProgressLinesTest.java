package dev.fleetfix.lab.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fleetfix.cli.ProgressLines;
import dev.fleetfix.fake.TestClock;
import dev.fleetfix.report.console.Screen;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/**
 * What {@code lab up} prints while a step lasts is a progress line to the tests (they take those out before reading
 * a whole stderr), and the steps it names are not.
 */
class LabProgressLinesTest {

    @Test
    void aLastingStepsLinesAreProgressAndTheStepsAreNot() throws Exception {
        StringWriter err = new StringWriter();
        TestClock clock = new TestClock(Instant.parse("2026-12-06T07:00:00Z"));
        try (LabOutput.Starting starting = LabOutput.starting(new PrintWriter(err), Screen.pipe(), clock)) {
            starting.accept("booting lab-1");
            clock.advance(Duration.ofSeconds(3));
            // the heartbeat beats each second of real time; the time it tells is the clock's
            long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            while (!err.toString().contains("still") && System.nanoTime() < deadline) {
                Thread.sleep(50);
            }
        }
        String text = err.toString();

        assertThat(text.lines().filter(l -> l.contains("still")))
                .isNotEmpty()
                .allSatisfy(l -> assertThat(l).startsWith("lab: still booting lab-1 ("))
                .allMatch(ProgressLines::isProgress);
        assertThat(ProgressLines.without(text)).isEqualTo("lab: booting lab-1\n");
    }
}
