package dev.fleetfix.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fleetfix.fake.FakeHost;
import dev.fleetfix.fake.TestClock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** {@code apply --tags/--skip-tags}, the listings {@code --list-tags} and {@code --list-tasks}, and resumes. */
class ApplyTagsTest {
    private static final String THP_OFF = "playbooks/thp-off.yaml";

    @TempDir
    Path dir;

    private final TestClock clock = new TestClock(Instant.parse("2026-11-28T01:30:00Z"));
    private FakeFleet fleet;
    private Map<String, FakeHost> hosts;
    private Path inventory;
    private Path playbook;

    @BeforeEach
    void fleet() throws Exception {
        fleet = new FakeFleet(dir, clock, "r1", "r2", "r3");
        hosts = fleet.hosts();
        inventory = Files.writeString(
                dir.resolve("inventory.yaml"),
                """
                all:
                  children:
                    redis:
                      hosts:
                        r1: {ansible_host: 127.0.0.1}
                        r2: {ansible_host: 127.0.0.1}
                        r3: {ansible_host: 127.0.0.1}
                """);
        playbook = Files.writeString(
                dir.resolve("thp-off.yaml"),
                """
                - name: thp off
                  hosts: redis
                  serial: 1
                  steps:
                    - thp: {}
                      tags: thp
                    - persist_thp: {method: systemd}
                      tags: [thp, persist]
                    - restart_redis: {unit: "{{ redis_service }}"}
                      tags: restart
                    - wait_healthy: {timeout: 10s}
                      tags: restart
                """);
    }

    private CliRun apply(String... args) {
        return fleet.apply(args);
    }

    @Test
    void listTagsPrintsEachPlaysTaskTagsAsAnsiblePlaybookDoes() {
        CliRun run = apply(THP_OFF, "-i", inventory.toString(), "--list-tags");

        assertThat(run.exitCode()).as(run.toString()).isZero();
        assertThat(run.stdout())
                .isEqualTo(
                        """

                        playbook: playbooks/thp-off.yaml

                          play #1 (all): THP off, persisted, rolling restart\tTAGS: []
                              TASK TAGS: [always, benchmark, persist, restart, thp]

                        """);
    }

    @Test
    void listTasksPrintsTheStepsTheTagsSelectWithTheirTags() {
        CliRun run = apply(THP_OFF, "-i", inventory.toString(), "--list-tasks", "--skip-tags", "benchmark");

        assertThat(run.exitCode()).as(run.toString()).isZero();
        assertThat(run.stdout())
                .isEqualTo(
                        """

                        playbook: playbooks/thp-off.yaml

                          play #1 (all): THP off, persisted, rolling restart\tTAGS: []
                            tasks:
                              audit\tTAGS: [always]
                              thp\tTAGS: [thp]
                              persist_thp\tTAGS: [persist, thp]
                              restart_redis\tTAGS: [restart]
                              wait_healthy\tTAGS: [restart]
                              assert\tTAGS: [thp]

                        """);

        CliRun both = apply(THP_OFF, "-i", inventory.toString(), "--list-tasks", "--list-tags", "--tags", "restart");
        assertThat(both.stdout())
                .contains("    tasks:\n      audit\tTAGS: [always]\n      restart_redis\tTAGS: [restart]\n"
                        + "      wait_healthy\tTAGS: [restart]\n      TASK TAGS: [always, restart]\n");
    }

    @Test
    void theListingsConnectToNothingWhileACheckRunDoes() throws Exception {
        try (CountingPort listener = new CountingPort()) {
            Path local = Files.writeString(
                    dir.resolve("local.yaml"),
                    "all:\n  hosts:\n    r1: {ansible_host: 127.0.0.1, ansible_port: " + listener.port()
                            + ", redis_port: " + listener.port() + "}\n");
            // the real adapters: SSH and Jedis
            CommandLine real = Main.commandLine(
                    Adapters.builder().runsHome(dir.resolve("runs")).build());

            CliRun listing = CliRun.of(
                    real, FakeFleet.withApply(THP_OFF, "-i", local.toString(), "--list-tasks", "--list-tags"));

            assertThat(listing.exitCode()).as(listing.toString()).isZero();
            assertThat(listener.connections())
                    .as("connections during --list-tasks")
                    .isZero();

            // the same check sees a connection: a check run reads the restarting play's replication from Redis
            CliRun check = CliRun.of(
                    Main.commandLine(
                            Adapters.builder().runsHome(dir.resolve("runs")).build()),
                    FakeFleet.withApply(THP_OFF, "-i", local.toString(), "--check", "-T", "1", "-F", "none"));
            assertThat(listener.connections()).as(check.toString()).isPositive();
        }
    }

    @Test
    void aTaggedRunSaysItsTagsAndWhatTheyLeaveOut() {
        CliRun run = apply(playbook.toString(), "-i", inventory.toString(), "--no-color", "--skip-tags", "restart");

        assertThat(run.exitCode()).as(run.toString()).isZero();
        assertThat(run.stdout())
                .contains(": 3 hosts, forks 10, tags: all; skip: restart\n")
                .contains("  left out by tags: restart_redis, wait_healthy\n");
        assertThat(hosts.values()).allSatisfy(h -> {
            assertThat(h.thp("enabled")).isEqualTo("never");
            assertThat(h.redis().restarts()).isZero();
        });
    }

    @Test
    void badTagOptionsAreExit2() {
        CliRun empty = apply(playbook.toString(), "-i", inventory.toString(), "--tags", "thp,,restart");
        assertThat(empty.exitCode()).as(empty.toString()).isEqualTo(ExitCode.USAGE);
        assertThat(empty.stderr()).contains("--tags: an empty tag in 'thp,,restart'");

        CliRun both = apply(playbook.toString(), "-i", inventory.toString(), "--list-tasks", "--list-hosts");
        assertThat(both.exitCode()).as(both.toString()).isEqualTo(ExitCode.USAGE);
        assertThat(both.stderr()).contains("ask for one listing at a time");
        assertThat(hosts.values()).allSatisfy(h -> assertThat(h.scripts()).isEmpty());
    }

    @Test
    void aResumeKeepsTheTagsOfTheRunItResumesAndRefusesOthersWithoutForce() throws Exception {
        Path runDir = dir.resolve("run");
        hosts.get("r2").failRestarts();
        CliRun first = apply(
                playbook.toString(),
                "-i",
                inventory.toString(),
                "--skip-tags",
                "persist",
                "--run-dir",
                runDir.toString());
        assertThat(first.exitCode()).as(first.toString()).isEqualTo(ExitCode.FINDINGS);
        hosts.get("r2").delete("/fail-restart");

        CliRun listed = apply("--resume", runDir.toString(), "--list-tasks");
        assertThat(listed.exitCode()).as(listed.toString()).isZero();
        assertThat(listed.stdout())
                .contains("      thp\tTAGS: [thp]\n      restart_redis")
                .doesNotContain("persist_thp");

        CliRun other = apply("--resume", runDir.toString(), "--tags", "thp", "--no-color");
        assertThat(other.exitCode()).as(other.toString()).isEqualTo(ExitCode.USAGE);
        assertThat(other.stderr())
                .contains("--resume " + runDir + " ran with tags all; skip: persist, not thp: the hosts it did ran"
                        + " only the steps its tags selected");
        assertThat(hosts.get("r3").scripts()).isEmpty();

        CliRun resumed = apply("--resume", runDir.toString(), "--no-color");

        assertThat(resumed.exitCode()).as(resumed.toString()).isZero();
        assertThat(resumed.stdout()).contains("tags: all; skip: persist").contains("left out by tags: persist_thp");
        assertThat(hosts.get("r3").thp("enabled")).isEqualTo("never");
        assertThat(hosts.get("r3").read("/etc/systemd/system/fleetfix-thp.service"))
                .as("persist_thp, left out by the resumed run's tags")
                .isEmpty();
        // the same tags given again are the journal's: no --force needed
        CliRun same = apply("--resume", runDir.toString(), "--skip-tags", "persist", "--list-tasks");
        assertThat(same.exitCode()).as(same.toString()).isZero();
        // other tags with --force: these
        CliRun forced = apply("--resume", runDir.toString(), "--tags", "persist", "--force", "--list-tasks");
        assertThat(forced.exitCode()).as(forced.toString()).isZero();
        assertThat(forced.stdout()).contains("    tasks:\n      persist_thp\tTAGS: [persist, thp]\n\n");
    }
}
