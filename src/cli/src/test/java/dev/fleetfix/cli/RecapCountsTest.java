package dev.fleetfix.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.fleetfix.fake.FakeHost;
import dev.fleetfix.fake.TestClock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Map;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The recap counts a failed host in {@code failed=}, whichever way it failed, as Ansible's does: a script that greps
 * {@code failed=[1-9]} finds every one. An unreachable host is counted apart, in {@code unreachable=}.
 */
class RecapCountsTest {
    @TempDir
    Path dir;

    /** Each way a host fails, on host r1 (r2 is left alone and must end ok). */
    enum Failure {
        /** Refused by the preflight, before any change: the unit to restart does not exist. */
        PREFLIGHT(h -> h.missingUnit("redis-server.service"), "failed"),
        /** The restart step itself fails. */
        STEP(FakeHost::failRestarts, "failed"),
        /** Redis never answers after the restart: the health gate fails. */
        GATE(FakeHost::restartBreaksRedis, "failed"),
        /** A library crashes on what the host sent. */
        CRASH(h -> h.crashOn(script -> script.contains("restart")), "failed"),
        /** The host is gone. */
        UNREACHABLE(FakeHost::failTransientlyAlways, "unreachable");

        final Consumer<FakeHost> breaks;
        final String outcome;

        Failure(Consumer<FakeHost> breaks, String outcome) {
            this.breaks = breaks;
            this.outcome = outcome;
        }
    }

    @ParameterizedTest
    @EnumSource(Failure.class)
    void aFailedHostCountsInFailedAndAnUnreachableOneInUnreachable(Failure failure) throws Exception {
        FakeFleet fleet = new FakeFleet(dir, new TestClock(Instant.parse("2026-11-28T01:30:00Z")), "r1", "r2");
        Map<String, FakeHost> hosts = fleet.hosts();
        failure.breaks.accept(hosts.get("r1"));
        Path inventory = Files.writeString(
                dir.resolve("inventory.yaml"),
                "all:\n  children:\n    redis:\n      hosts:\n        r1: {ansible_host: 127.0.0.1}\n"
                        + "        r2: {ansible_host: 127.0.0.1}\n");
        Path playbook = Files.writeString(
                dir.resolve("thp-off.yaml"),
                """
                - name: thp off
                  hosts: redis
                  serial: 1
                  max_fail_percentage: 100
                  steps:
                    - thp: {}
                    - restart_redis: {unit: redis-server.service}
                    - wait_healthy: {timeout: 2s}
                """);
        Path reports = dir.resolve("reports");

        CliRun run = fleet.apply(
                playbook.toString(), "-i", inventory.toString(), "--no-color", "--report", reports.toString());

        assertThat(run.exitCode()).as(run.toString()).isEqualTo(ExitCode.FINDINGS);
        JsonNode report =
                new ObjectMapper().readTree(reports.resolve("report.json").toFile());
        assertThat(report.at("/hosts/0/outcome").asText()).as(run.toString()).isEqualTo(failure.outcome);
        if (failure.outcome.equals("failed")) {
            assertThat(count(run.stdout(), "r1", "failed")).as(run.toString()).isEqualTo(1);
        } else {
            assertThat(count(run.stdout(), "r1", "unreachable"))
                    .as(run.toString())
                    .isEqualTo(1);
            assertThat(count(run.stdout(), "r1", "failed")).as(run.toString()).isZero();
        }
        assertThat(count(run.stdout(), "r2", "failed")).as(run.toString()).isZero();
        // report show prints the same recap from the saved report
        CliRun shown = fleet.run("report", "show", reports.toString(), "--no-color");
        assertThat(count(shown.stdout(), "r1", failure.outcome))
                .as(shown.toString())
                .isEqualTo(1);
    }

    /** The recap line's {@code what=N} of {@code host}. */
    private static int count(String recap, String host, String what) {
        Matcher m = Pattern.compile("(?m)^" + host + "\\s+: .*\\b" + what + "=(\\d+)")
                .matcher(recap);
        assertThat(m.find()).as("a recap line of " + host + " in:\n" + recap).isTrue();
        return Integer.parseInt(m.group(1));
    }
}
