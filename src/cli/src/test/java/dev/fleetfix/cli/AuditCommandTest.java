package dev.fleetfix.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The audit command's options and exit codes that need no host. */
class AuditCommandTest {
    @TempDir
    Path dir;

    private Path inventory() throws IOException {
        return Files.writeString(
                dir.resolve("inventory.yaml"),
                """
                all:
                  children:
                    redis:
                      hosts:
                        redis-1: {ansible_host: 127.0.0.201, ansible_port: 2201}
                        redis-2: {ansible_host: 127.0.0.202, ansible_port: 2202}
                    cache:
                      hosts:
                        cache-1: {ansible_host: 127.0.0.203, ansible_port: 2203, redis_password: s3cret}
                """);
    }

    @Test
    void listHostsPrintsTheSelectionAndConnectsToNothing() throws IOException {
        CliRun run = CliRun.of("audit", "-i", inventory().toString(), "--limit", "redis", "--list-hosts")
                .expectExit(0);

        assertThat(run.stdout()).as(run.toString()).isEqualTo("redis-1\nredis-2\n");
    }

    @Test
    void zeroForksAndAWordAreBadUsageWithOneMessage() throws IOException {
        for (String forks : List.of("0", "many")) {
            CliRun run = CliRun.of("audit", "-i", inventory().toString(), "--forks", forks)
                    .expectExit(2);

            assertThat(run.stderr())
                    .as(run.toString())
                    .contains("Invalid value for option '--forks': forks must be a whole number of at least 1, was '"
                            + forks + "'");
            assertThat(run.stdout()).as(run.toString()).isEmpty();
        }
    }

    @Test
    void anOutputThatCannotBeWrittenIsBadInputBeforeAnyHostIsAudited() throws IOException {
        Path directory = Files.createDirectories(dir.resolve("metrics.prom"));
        Path blocker = Files.writeString(dir.resolve("not-a-dir"), "x");

        for (Path output : List.of(directory, blocker.resolve("fleetfix.prom"))) {
            CliRun run = CliRun.of(
                            "audit", "-i", inventory().toString(), "--format", "openmetrics", "-o", output.toString())
                    .expectExit(2);

            assertThat(run.stderr()).as(run.toString()).contains("--output " + output);
            // the hosts (127.0.0.201-203, where nothing listens) would otherwise be reported unreachable
            assertThat(run.stdout() + run.stderr()).as(run.toString()).doesNotContain("unreachable");
        }
    }

    @Test
    void anOutputInADirectoryThatDoesNotExistIsRefusedNotMade() throws IOException {
        Path output = dir.resolve("var/lib/node_exporter/fleetfix.prom");

        CliRun run = CliRun.of(
                        "audit", "-i", inventory().toString(), "--format", "openmetrics", "-o", output.toString())
                .expectExit(2);

        assertThat(run.stderr())
                .as(run.toString())
                .contains("--output " + output + ": directory " + output.getParent() + " does not exist");
        assertThat(dir.resolve("var")).doesNotExist();
    }

    @Test
    void aMissingInventoryIsBadInput() {
        CliRun run =
                CliRun.of("audit", "-i", dir.resolve("nope.yaml").toString()).expectExit(2);

        assertThat(run.stderr()).as(run.toString()).contains("nope.yaml");
    }

    @Test
    void aPatternThatSelectsNothingIsBadInput() throws IOException {
        CliRun run = CliRun.of("audit", "-i", inventory().toString(), "--limit", "web")
                .expectExit(2);

        assertThat(run.stderr()).as(run.toString()).contains("web");
    }

    @Test
    void auditIsASubcommandWithItsOptionsInTheHelp() {
        CliRun run = CliRun.of("audit", "--help").expectExit(0);

        assertThat(run.stdout())
                .as(run.toString())
                .contains("--json", "--forks", "--limit", "--inventory", "--accept-new-host-keys");
    }

    @Test
    void aHostOfAConnectionFleetfixLacksIsUnreachableWithOneLineAndNeverContacted() throws IOException {
        // 192.0.2.1 is TEST-NET-1: were an SSH connection tried, it would time out, not answer
        Path ini = Files.writeString(
                dir.resolve("win.ini"), "[win]\nw1 ansible_host=192.0.2.1 ansible_connection=winrm\n");

        CliRun run = CliRun.of("audit", "-F", "none", "-i", ini.toString(), "--connect-timeout", "1s");

        assertThat(run.stdout())
                .as(run.toString())
                .contains("risk: host w1 (192.0.2.1:22): ansible_connection winrm is not a connection fleetfix has"
                        + " (ssh or local): skipped, nothing was sent to it")
                .contains("1 host: 0 ok, 0 at-risk, 1 unreachable");
    }
}
