package dev.fleetfix.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fleetfix.fake.FakeHost;
import dev.fleetfix.fake.TestClock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** ansible-playbook's flags, as an operator's hands type them, on a fleet of fake hosts. */
class AnsibleFlagsTest {
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
                        r1: {ansible_host: 127.0.0.1, ansible_user: deploy}
                        r2: {ansible_host: 127.0.0.1}
                        r3: {ansible_host: 127.0.0.1}
                """);
        playbook = Files.writeString(
                dir.resolve("thp-off.yaml"),
                """
                - name: thp off
                  hosts: redis
                  serial: 1
                  vars:
                    wanted: never
                  steps:
                    - thp: {enabled: "{{ wanted }}"}
                    - persist_thp: {method: systemd}
                    - name: benchmark before
                      benchmark: {name: thp, phase: before, duration: 1s, warmup: 0s, rounds: 7}
                    - restart_redis: {unit: "{{ redis_service }}"}
                    - wait_healthy: {timeout: 10s}
                    - name: benchmark after
                      benchmark: {name: thp, phase: after, duration: 1s, warmup: 0s, rounds: 7}
                """);
    }

    private CliRun apply(String... args) {
        return fleet.apply(args);
    }

    @Test
    void theIssuesCommandLineIsACheckOfOneHostWithTwentyForks() {
        CliRun run = apply(
                playbook.toString(),
                "-i",
                inventory.toString(),
                "-l",
                "r1",
                "-C",
                "-D",
                "-f",
                "20",
                "-e",
                "serial=1",
                "-u",
                "ops",
                "-b",
                "--no-color",
                "--start-at-task",
                "thp");
        assertThat(run.exitCode()).as(run.toString()).isEqualTo(ExitCode.CHANGES_PENDING);
        assertThat(run.stdout())
                .contains("check mode")
                .contains("1 host, forks 20")
                .contains("would change: [r1] thp")
                .contains("+++ b/etc/systemd/system/fleetfix-thp.service")
                .doesNotContain("[r2]");
        assertThat(hosts.values()).allSatisfy(h -> assertThat(h.thp("enabled")).isEqualTo("always"));
    }

    @Test
    void extraVarsWinOverPlayVarsInEachOfTheirThreeForms() throws Exception {
        Path file = Files.writeString(dir.resolve("vars.yml"), "wanted: madvise\n");
        for (List<String> form : List.of(
                List.of("-e", "wanted=madvise"),
                List.of("-e", "{\"wanted\": \"madvise\"}"),
                List.of("--extra-vars", "@" + file),
                List.of("-e", "wanted=always", "-e", "wanted=madvise"))) {
            List<String> args = new java.util.ArrayList<>(
                    List.of(playbook.toString(), "-i", inventory.toString(), "-C", "--no-color", "-l", "r2"));
            args.addAll(form);
            CliRun run = apply(args.toArray(String[]::new));
            assertThat(run.exitCode()).as(form + "\n" + run).isEqualTo(ExitCode.CHANGES_PENDING);
            assertThat(run.stdout()).as(form.toString()).contains("thp.enabled always → madvise");
        }
    }

    @Test
    void extraVarsReachTheHostsConnectionAboveItsInventoryVariables() {
        CliRun listed = CliRun.of(
                "inventory", "-i", inventory.toString(), "--host", "r1", "-e", "ansible_user=root", "-u", "ops");
        assertThat(listed.exitCode()).as(listed.toString()).isZero();
        assertThat(listed.stdout()).contains("root").doesNotContain("deploy");
    }

    @Test
    void aResumeWithOtherExtraVarsThanItsRunIsRefusedAndTheSameOnesGoOn() throws Exception {
        Path book = Files.writeString(
                dir.resolve("restart.yaml"),
                """
                - name: thp off
                  hosts: redis
                  serial: 1
                  steps:
                    - thp: {enabled: "{{ wanted }}"}
                    - restart_redis: {unit: "{{ redis_service }}"}
                """);
        Path runDir = dir.resolve("run");
        hosts.get("r2").failRestarts();
        CliRun first = apply(
                book.toString(), "-i", inventory.toString(), "--run-dir", runDir.toString(), "-e", "wanted=madvise");
        assertThat(first.exitCode()).as(first.toString()).isEqualTo(ExitCode.FINDINGS);
        hosts.get("r2").delete("/fail-restart");

        CliRun refused = apply("--resume", runDir.toString(), "--no-color");
        assertThat(refused.exitCode()).as(refused.toString()).isEqualTo(ExitCode.USAGE);
        assertThat(refused.stderr()).contains("the extra vars (-e) differ from the run's");
        assertThat(hosts.get("r3").scripts()).isEmpty();

        CliRun same = apply("--resume", runDir.toString(), "-e", "wanted=madvise", "--no-color");
        assertThat(same.exitCode()).as(same.toString()).isEqualTo(ExitCode.OK);
        assertThat(hosts.get("r3").thp("enabled")).isEqualTo("madvise");
    }

    @Test
    void badExtraVarsAreExit2NamingTheOptionAndTouchNothing() throws Exception {
        Path list = Files.writeString(dir.resolve("list.yml"), "- a\n- b\n");
        Map<List<String>, String> cases = Map.of(
                List.of("-e", "justaword"), "'justaword' is not key=value",
                List.of("-e", "9lives=1"), "'9lives' is not a valid variable name",
                List.of("-e", "@" + list), list + ":1:1: extra vars must be a mapping",
                List.of("-e", "@" + dir.resolve("missing.yml")), "no such file",
                List.of("-e", "{\"a\": "), "-e:1");
        cases.forEach((form, message) -> {
            List<String> args = new java.util.ArrayList<>(List.of(playbook.toString(), "-i", inventory.toString()));
            args.addAll(form);
            CliRun run = apply(args.toArray(String[]::new));
            assertThat(run.exitCode()).as(form + "\n" + run).isEqualTo(ExitCode.USAGE);
            assertThat(run.stderr()).as(form.toString()).contains(message);
        });
        assertThat(hosts.values()).allSatisfy(h -> assertThat(h.scripts()).isEmpty());
        assertThat(fleet.redisConnections()).isZero();
    }

    @Test
    void becomeUserOtherThanRootIsRefused() {
        CliRun run = apply(playbook.toString(), "-i", inventory.toString(), "-b", "--become-user", "redis");
        assertThat(run.exitCode()).as(run.toString()).isEqualTo(ExitCode.USAGE);
        assertThat(run.stderr()).contains("--become-user redis: fleetfix becomes only root");
    }

    @Test
    void startAtTaskRunsFromTheNamedStepOn() throws Exception {
        Path book = Files.writeString(
                dir.resolve("persist.yaml"),
                """
                - name: audit first
                  hosts: redis
                  steps:
                    - audit: {}
                - name: thp off
                  hosts: redis
                  steps:
                    - thp: {}
                    - name: persist it
                      persist_thp: {method: systemd}
                    - wait_healthy: {timeout: 10s, gates: [ping]}
                """);
        CliRun run = apply(book.toString(), "-i", inventory.toString(), "-l", "r1", "--start-at-task", "persist*");
        assertThat(run.exitCode()).as(run.toString()).isZero();
        assertThat(run.stdout())
                .contains("] persist it:")
                .contains("] wait_healthy:")
                .doesNotContain("] thp:")
                .doesNotContain("audit");
        assertThat(hosts.get("r1").thp("enabled")).isEqualTo("always");
        assertThat(hosts.get("r1").read("/etc/systemd/system/fleetfix-thp.service"))
                .isPresent();
    }

    @Test
    void startAtTaskBetweenTheTwoBenchmarksIsRefusedWithTheReason() {
        CliRun run = apply(playbook.toString(), "-i", inventory.toString(), "--start-at-task", "restart_*");
        assertThat(run.exitCode()).as(run.toString()).isEqualTo(ExitCode.USAGE);
        assertThat(run.stderr())
                .contains("--start-at-task 'restart_*': it would skip 'benchmark before' (line 9), which"
                        + " 'benchmark after' (line 13) compares with; start at or before 'benchmark before'");
        CliRun unknown = apply(playbook.toString(), "-i", inventory.toString(), "--start-at-task", "reboot");
        assertThat(unknown.exitCode()).isEqualTo(ExitCode.USAGE);
        assertThat(unknown.stderr())
                .contains("--start-at-task 'reboot': no step of " + playbook + " has that name; its steps: thp,"
                        + " persist_thp, benchmark before, restart_redis, wait_healthy, benchmark after");
        CliRun gate = apply(playbook.toString(), "-i", inventory.toString(), "--start-at-task", "wait_healthy");
        assertThat(gate.stderr())
                .contains("--start-at-task 'wait_healthy': it would skip 'restart_redis' (line 11), which"
                        + " 'wait_healthy' (line 12) reads the role from, for its role_unchanged gate");
        assertThat(hosts.values()).allSatisfy(h -> assertThat(h.scripts()).isEmpty());
    }

    @Test
    void syntaxCheckReadsEverythingAndContactsNothing() throws Exception {
        CliRun ok = apply(playbook.toString(), "-i", inventory.toString(), "--syntax-check");
        assertThat(ok.exitCode()).as(ok.toString()).isZero();
        assertThat(ok.stdout()).startsWith("playbook: " + playbook + "\nsyntax ok");

        Files.writeString(playbook, Files.readString(playbook).replace("{{ wanted }}", "{{ unwanted }}"));
        CliRun bad = apply(playbook.toString(), "-i", inventory.toString(), "--syntax-check");
        assertThat(bad.exitCode()).isEqualTo(ExitCode.USAGE);
        assertThat(bad.stderr())
                .contains(playbook + ":7:7: thp.enabled (host r1)")
                .contains("undefined variable 'unwanted'");
        assertThat(hosts.values()).allSatisfy(h -> assertThat(h.scripts()).isEmpty());
        assertThat(fleet.redisConnections()).isZero();
    }

    /** Issue 43: a benchmark design that could never call a change is found when the playbook is read. */
    @Test
    void syntaxCheckAndCheckRefuseABenchmarkThatCouldNeverCallAChange() throws Exception {
        Files.writeString(
                playbook,
                Files.readString(playbook)
                        .replace(
                                "phase: before, duration: 1s, warmup: 0s, rounds: 7",
                                "phase: before, duration: 1s," + " warmup: 0s, rounds: 3"));
        for (String mode : List.of("--syntax-check", "--check")) {
            CliRun run = apply(playbook.toString(), "-i", inventory.toString(), mode);
            assertThat(run.exitCode()).as(run.toString()).isEqualTo(ExitCode.USAGE);
            assertThat(run.stderr())
                    .as(run.toString())
                    .contains(playbook + ":9:7: benchmark (host r1): rounds: 3 rounds a side (6 batches)"
                            + " cannot call any change")
                    .contains("4 rounds a side could");
            if (mode.equals("--syntax-check")) {
                assertThat(fleet.redisConnections()).isZero();
            }
        }
        assertThat(hosts.values()).allSatisfy(h -> assertThat(h.scripts()).isEmpty());
    }

    @Test
    void listHostsIsAnsiblesListingAndReadsNoRedis() {
        CliRun run = apply(playbook.toString(), "-i", inventory.toString(), "--list-hosts", "-l", "r1:r3");
        assertThat(run.exitCode()).as(run.toString()).isZero();
        assertThat(run.stdout())
                .isEqualTo("playbook: " + playbook + "\n\n  play #1 (redis): thp off\n    pattern: redis\n"
                        + "    hosts (2):\n      r1\n      r3\n\nThe order and batches of a rollout come from Redis"
                        + " (replicas first): --check shows them.\n");
        assertThat(fleet.redisConnections()).isZero();
        assertThat(hosts.values()).allSatisfy(h -> assertThat(h.scripts()).isEmpty());
    }

    /**
     * With the real SSH and Redis adapters, against a port that counts who connects: the offline commands open
     * no socket, and a check run (the control: it must be seen) does.
     */
    @Test
    void theOfflineCommandsOpenNoSocketWhereACheckRunDoes() throws Exception {
        try (CountingPort port = new CountingPort()) {
            Path inv = Files.writeString(
                    dir.resolve("counted.yaml"),
                    "redis:\n  hosts:\n    r1: {ansible_host: 127.0.0.1, ansible_port: " + port.port()
                            + ", redis_port: " + port.port() + "}\n");
            for (String offline : List.of("--list-hosts", "--syntax-check")) {
                CliRun run = CliRun.of("apply", playbook.toString(), "-i", inv.toString(), offline, "-F", "none");
                assertThat(run.exitCode()).as(run.toString()).isZero();
            }
            assertThat(port.connections())
                    .as("connections to the inventory's host")
                    .isZero();

            CliRun check = CliRun.of("apply", playbook.toString(), "-i", inv.toString(), "-C", "-T", "1", "-F", "none");
            assertThat(check.exitCode()).as(check.toString()).isNotZero();
            assertThat(port.connections())
                    .as("the control: a check run does connect")
                    .isPositive();
        }
    }
}
