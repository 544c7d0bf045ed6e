package dev.fleetfix.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The alert rules the package ships (contrib/prometheus/fleetfix.rules.yml) pass Debian's {@code promtool check
 * rules}. An integration test because it needs promtool, which the lab's prepare.sh installs; without it the test
 * fails rather than skips, so a CI that lost the tool does not pass unchecked rules.
 */
class AlertRulesIT {
    private static final Path RULES = Path.of("contrib/prometheus/fleetfix.rules.yml");

    @Test
    void promtoolAcceptsTheShippedAlertRules() throws IOException, InterruptedException {
        Process promtool;
        try {
            promtool = new ProcessBuilder("promtool", "check", "rules", RULES.toString())
                    .redirectErrorStream(true)
                    .start();
        } catch (IOException e) {
            throw new AssertionError(
                    "promtool is missing: install Debian's prometheus package (src/lab/src/lab/prepare.sh does)", e);
        }
        assertThat(promtool.waitFor(60, TimeUnit.SECONDS)).as("promtool ends").isTrue();
        String output = new String(promtool.getInputStream().readAllBytes(), StandardCharsets.UTF_8);

        assertThat(promtool.exitValue()).as(output).isZero();
        assertThat(output).contains("SUCCESS: 5 rules found");
        assertThat(Files.readString(RULES))
                .contains(
                        "alert: FleetfixThpNotNever",
                        "alert: FleetfixThpBootDisagrees",
                        "alert: FleetfixAuditStale",
                        "alert: FleetfixHostUnreachable");
    }
}
