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

class ApplyCommandTest {
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
        inventory = dir.resolve("inventory.yaml");
        Files.writeString(
                inventory,
                """
                all:
                  children:
                    redis:
                      hosts:
                        r1: {ansible_host: 127.0.0.1}
                        r2: {ansible_host: 127.0.0.1}
                        r3: {ansible_host: 127.0.0.1}
                """);
        playbook = dir.resolve("thp-off.yaml");
        Files.writeString(
                playbook,
                """
                - name: thp off
                  hosts: redis
                  serial: 1
                  steps:
                    - thp: {}
                    - persist_thp: {method: systemd}
                    - restart_redis: {unit: "{{ redis_service }}"}
                    - wait_healthy: {timeout: 10s}
                """);
    }

    private CliRun apply(String... args) {
        return fleet.apply(args);
    }

    @Test
    void appliesThenNothingIsPending() {
        CliRun check = apply(playbook.toString(), "-i", inventory.toString(), "--check", "--diff", "--no-color");
        assertThat(check.exitCode()).as(check.toString()).isEqualTo(ExitCode.CHANGES_PENDING);
        assertThat(check.stdout())
                .contains("check mode")
                .contains("would change: [r1] thp: thp.enabled always → never, thp.defrag always → never")
                .contains("+++ b/etc/systemd/system/fleetfix-thp.service")
                .contains("check: changes pending on r1, r2, r3")
                .doesNotContain("\u001b[");
        assertThat(hosts.get("r1").thp("enabled")).isEqualTo("always");

        CliRun run = apply(playbook.toString(), "-i", inventory.toString(), "--no-color");
        assertThat(run.exitCode()).as(run.toString()).isEqualTo(ExitCode.OK);
        assertThat(run.stdout()).containsPattern("r1 +: ok=1 +changed=3 +failed=0 +skipped=0 +unreachable=0");
        assertThat(hosts.values()).allSatisfy(h -> assertThat(h.thp("enabled")).isEqualTo("never"));

        CliRun again = apply(playbook.toString(), "-i", inventory.toString(), "--check");
        assertThat(again.exitCode()).as(again.toString()).isEqualTo(ExitCode.OK);
        assertThat(again.stdout()).contains("check: nothing to change");
    }

    @Test
    void aHostOfAConnectionFleetfixLacksFailsAloneWithOneLineAndIsNeverReached() throws Exception {
        // w1 has no fake: a shell or Redis connection asked for it would fail the test with a NullPointerException
        Path more = Files.writeString(
                dir.resolve("windows.ini"), "[redis]\nw1 ansible_host=127.0.0.1 ansible_connection=winrm\n");

        CliRun run = apply(playbook.toString(), "-i", inventory.toString(), "-i", more.toString(), "--no-color");

        assertThat(run.exitCode()).as(run.toString()).isNotZero();
        assertThat(run.stdout().lines().filter(l -> l.contains("ansible_connection winrm")))
                .as(run.toString())
                .singleElement()
                .asString()
                .contains("w1")
                .contains("is not a connection fleetfix has (ssh or local): skipped, nothing was sent to it");
        assertThat(run.stdout()).containsPattern("w1 +: ok=0 +changed=0 +failed=0 +skipped=0 +unreachable=1");
        assertThat(List.of("r1", "r2", "r3"))
                .allSatisfy(name -> assertThat(hosts.get(name).thp("enabled")).isEqualTo("never"));
        assertThat(run.stderr()).contains("fleetfix: warning: the run journal records the first inventory only");
    }

    @Test
    void limitNarrowsThePlay() {
        CliRun run = apply(playbook.toString(), "-i", inventory.toString(), "--limit", "r2");
        assertThat(run.exitCode()).as(run.toString()).isZero();
        assertThat(hosts.get("r1").thp("enabled")).isEqualTo("always");
        assertThat(hosts.get("r2").thp("enabled")).isEqualTo("never");
    }

    @Test
    void listHostsShowsEachPlaysHostsAndConnectsToNothing() {
        CliRun run = apply(playbook.toString(), "-i", inventory.toString(), "--list-hosts", "--limit", "r1:r3");
        assertThat(run.exitCode()).as(run.toString()).isZero();
        assertThat(run.stdout())
                .contains("  play #1 (redis): thp off\n    pattern: redis\n    hosts (2):\n      r1\n      r3\n");
        assertThat(hosts.values()).allSatisfy(h -> assertThat(h.scripts()).isEmpty());
    }

    @Test
    void badPlaybookIsExit2AndTouchesNothing() throws Exception {
        Files.writeString(playbook, "- hosts: redis\n  steps:\n    - restart_redis: {unit: \"{{ nope }}\"}\n");
        CliRun run = apply(playbook.toString(), "-i", inventory.toString());
        assertThat(run.exitCode()).isEqualTo(ExitCode.USAGE);
        assertThat(run.stderr()).contains(playbook + ":3:7: restart_redis.unit (host r1): undefined variable 'nope'");
        assertThat(hosts.values()).allSatisfy(h -> assertThat(h.scripts()).isEmpty());
    }

    @Test
    void badWindowIsExit2() {
        CliRun run = apply(playbook.toString(), "-i", inventory.toString(), "--window", "Sat 1-5");
        assertThat(run.exitCode()).isEqualTo(ExitCode.USAGE);
        assertThat(run.stderr()).contains("--window: window 'Sat 1-5'");
    }

    @Test
    void closedWindowIsExit1AndTouchesNothing() {
        clock.set(Instant.parse("2026-11-30T10:00:00Z"));
        CliRun run =
                apply(playbook.toString(), "-i", inventory.toString(), "--window", "Sat 01:00-05:00 Europe/Berlin");
        assertThat(run.exitCode()).isEqualTo(ExitCode.FINDINGS);
        assertThat(run.stdout()).contains("REFUSED: outside the change window Sat 01:00-05:00 Europe/Berlin");
        assertThat(hosts.values()).allSatisfy(h -> assertThat(h.scripts()).isEmpty());
    }

    @Test
    void haltedRolloutIsExit1WithTheSummary() {
        hosts.get("r2").restartBreaksRedis();
        CliRun run = apply(playbook.toString(), "-i", inventory.toString(), "--no-color");
        assertThat(run.exitCode()).as(run.toString()).isEqualTo(ExitCode.FINDINGS);
        assertThat(run.stdout())
                .contains("HALTED [thp off]: batch 2: 1 of 1 hosts failed")
                .contains("done:      r1")
                .contains("failed:    r2")
                .contains("untouched: r3");
        assertThat(hosts.get("r3").scripts()).isEmpty();
    }

    @Test
    void aReportDirThatCannotBeMadeIsExit2BeforeAnyHostIsTouched() throws Exception {
        Path file = Files.writeString(dir.resolve("plain-file"), "x");
        CliRun run = apply(
                playbook.toString(),
                "-i",
                inventory.toString(),
                "--report",
                file.resolve("reports").toString());
        assertThat(run.exitCode()).as(run.toString()).isEqualTo(ExitCode.USAGE);
        assertThat(run.stderr()).contains("--report " + file.resolve("reports") + ": cannot create the directory");
        assertThat(hosts.values()).allSatisfy(h -> assertThat(h.scripts()).isEmpty());
    }

    @Test
    void aReportPathThatIsADirectoryIsExit2BeforeAnyHostIsTouched() throws Exception {
        Path reports = dir.resolve("reports");
        Files.createDirectories(reports.resolve("junit.xml"));
        CliRun run = apply(playbook.toString(), "-i", inventory.toString(), "--report", reports.toString());
        assertThat(run.exitCode()).as(run.toString()).isEqualTo(ExitCode.USAGE);
        assertThat(run.stderr()).contains(reports.resolve("junit.xml") + " is a directory");
        assertThat(hosts.values()).allSatisfy(h -> assertThat(h.scripts()).isEmpty());
    }

    @Test
    void aJournalThatIsASymbolicLinkIsRefusedBeforeAnyHostIsTouched() throws Exception {
        Path runDir = Files.createDirectories(dir.resolve("run"));
        Path elsewhere = Files.writeString(dir.resolve("precious.conf"), "keep me\n");
        Files.createSymbolicLink(runDir.resolve("journal.jsonl"), elsewhere);
        CliRun run = apply(playbook.toString(), "-i", inventory.toString(), "--run-dir", runDir.toString());
        assertThat(run.exitCode()).as(run.toString()).isEqualTo(ExitCode.USAGE);
        assertThat(run.stderr()).contains("journal.jsonl is a symbolic link");
        assertThat(Files.readString(elsewhere)).isEqualTo("keep me\n");
        assertThat(hosts.values()).allSatisfy(h -> assertThat(h.scripts()).isEmpty());
    }

    @Test
    void aRunDirInUseByAnotherRunIsRefusedBeforeAnyHostIsTouched() throws Exception {
        Path runDir = dir.resolve("run");
        try (dev.fleetfix.rollout.journal.RunJournal other = new dev.fleetfix.rollout.journal.RunJournal(runDir)) {
            CliRun run = apply(playbook.toString(), "-i", inventory.toString(), "--run-dir", runDir.toString());
            assertThat(run.exitCode()).as(run.toString()).isEqualTo(ExitCode.USAGE);
            assertThat(run.stderr()).contains("is in use by another fleetfix run");
        }
        assertThat(hosts.values()).allSatisfy(h -> assertThat(h.scripts()).isEmpty());
        assertThat(Files.readString(runDir.resolve("journal.jsonl"))).isEmpty();
        // once the other run ended, this one runs
        CliRun run = apply(playbook.toString(), "-i", inventory.toString(), "--run-dir", runDir.toString());
        assertThat(run.exitCode()).as(run.toString()).isZero();
    }

    /** A run halted at r2 (its restart fails), r1 done and r3 untouched, journaled in {@code runDir}. */
    private void haltedAtR2(Path runDir) {
        hosts.get("r2").failRestarts();
        CliRun first = apply(playbook.toString(), "-i", inventory.toString(), "--run-dir", runDir.toString());
        assertThat(first.exitCode()).as(first.toString()).isEqualTo(ExitCode.FINDINGS);
        assertThat(hosts.get("r3").scripts()).isEmpty();
        hosts.get("r2").delete("/fail-restart");
    }

    @Test
    void aResumeRefusesAPlaybookThatChangedSinceTheRunStartedAndGoesOnWithForce() throws Exception {
        Path runDir = dir.resolve("run");
        haltedAtR2(runDir);
        Files.writeString(playbook, Files.readString(playbook).replace("timeout: 10s", "timeout: 20s"));

        CliRun refused = apply("--resume", runDir.toString(), "--no-color");

        assertThat(refused.exitCode()).as(refused.toString()).isEqualTo(ExitCode.USAGE);
        assertThat(refused.stderr())
                .as(refused.toString())
                .contains("--resume " + runDir + ": the playbook " + playbook.toAbsolutePath() + " changed since the"
                        + " run started")
                .contains("add --force to resume anyway");
        assertThat(hosts.get("r3").scripts()).isEmpty();

        CliRun forced = apply("--resume", runDir.toString(), "--force", "--no-color");

        assertThat(forced.exitCode()).as(forced.toString()).isEqualTo(ExitCode.OK);
        assertThat(forced.stderr())
                .contains("--force: resuming although the playbook " + playbook.toAbsolutePath() + " changed");
        assertThat(hosts.get("r3").thp("enabled")).isEqualTo("never");
        // what the forced run read is what a later resume compares with
        CliRun again = apply("--resume", runDir.toString(), "--no-color");
        assertThat(again.exitCode()).as(again.toString()).isEqualTo(ExitCode.OK);
    }

    @Test
    void aResumeRefusesAnInventoryThatChangedSinceTheRunStartedNamingTheFile() throws Exception {
        Path runDir = dir.resolve("run");
        haltedAtR2(runDir);
        Path vars = Files.createDirectories(dir.resolve("group_vars")).resolve("redis.yaml");
        Files.writeString(vars, "redis_port: 6380\n");

        CliRun refused = apply("--resume", runDir.toString(), "--no-color");

        assertThat(refused.exitCode()).as(refused.toString()).isEqualTo(ExitCode.USAGE);
        assertThat(refused.stderr()).contains("inventory file " + vars.toAbsolutePath() + " added since the run");
        assertThat(hosts.get("r3").scripts()).isEmpty();

        Files.delete(vars);
        Files.writeString(inventory, Files.readString(inventory).replace("r3: {", "r3: {redis_port: 6380, "));
        refused = apply("--resume", runDir.toString(), "--no-color");
        assertThat(refused.exitCode()).as(refused.toString()).isEqualTo(ExitCode.USAGE);
        assertThat(refused.stderr())
                .contains("inventory file " + inventory.toAbsolutePath() + " changed since the run");
        assertThat(hosts.get("r3").scripts()).isEmpty();
    }

    @Test
    void anUnchangedResumeGoesOnAndForceWithoutResumeIsRefused() throws Exception {
        Path runDir = dir.resolve("run");
        haltedAtR2(runDir);

        CliRun alone = apply(playbook.toString(), "-i", inventory.toString(), "--force");
        assertThat(alone.exitCode()).as(alone.toString()).isEqualTo(ExitCode.USAGE);
        assertThat(alone.stderr()).contains("--force: only with --resume DIR");
        assertThat(hosts.get("r3").scripts()).isEmpty();

        CliRun resumed = apply("--resume", runDir.toString(), "--no-color");
        assertThat(resumed.exitCode()).as(resumed.toString()).isEqualTo(ExitCode.OK);
        assertThat(resumed.stderr()).doesNotContain("--force");
        assertThat(hosts.get("r3").thp("enabled")).isEqualTo("never");
    }

    @Test
    void theJournalTheReportAndTheLocksCarryOneRunId() throws Exception {
        Path reports = dir.resolve("reports");
        hosts.get("r2").failRestarts();
        CliRun run = apply(playbook.toString(), "-i", inventory.toString(), "--report", reports.toString());
        assertThat(run.exitCode()).as(run.toString()).isEqualTo(ExitCode.FINDINGS);
        com.fasterxml.jackson.databind.ObjectMapper json = new com.fasterxml.jackson.databind.ObjectMapper();
        String reportId = json.readTree(reports.resolve("report.json").toFile())
                .path("run")
                .path("id")
                .asText();
        List<String> journalIds = Files.readAllLines(reports.resolve("journal.jsonl")).stream()
                .map(l -> {
                    try {
                        return json.readTree(l).path("run").asText();
                    } catch (java.io.IOException e) {
                        throw new java.io.UncheckedIOException(e);
                    }
                })
                .filter(id -> !id.isEmpty())
                .distinct()
                .toList();
        assertThat(reportId).matches("20261128T013000Z-[0-9a-f]{8}");
        assertThat(journalIds).containsExactly(reportId);
        assertThat(hosts.get("r1").scripts()).anyMatch(sc -> sc.contains("run=" + reportId) && sc.contains("mkdir"));
    }

    @Test
    void hostileOutputReachesNeitherTheTerminalNorTheReportsRaw() throws Exception {
        Files.writeString(
                playbook,
                """
                - name: hostile
                  hosts: redis
                  max_fail_percentage: 100
                  steps:
                    - command:
                        cmd: |
                          printf 'fine\\033]0;pwned\\007 \\000 \\377\\376 \\033[2J'; printf '\\033[31mred\\a' >&2; exit 3
                """);
        // r3 is held by another run, whose owner file says hostile things too
        hosts.get("r3").write("/run/lock/fleetfix.lock/owner", "run=other\u001b[2J\npid=1\nnode=elsewhere\u0007\n");
        Path reports = dir.resolve("reports");
        CliRun run =
                apply(playbook.toString(), "-i", inventory.toString(), "--no-color", "--report", reports.toString());
        assertThat(run.exitCode()).as(run.toString()).isEqualTo(ExitCode.FINDINGS);
        assertThat(run.stdout() + run.stderr())
                .as(run.toString())
                .doesNotContain("\u001b", "\u0007", "\u0000")
                .contains("\\x1b[31mred\\x07")
                .contains("locked by run other\\x1b[2J");

        javax.xml.parsers.DocumentBuilderFactory factory = javax.xml.parsers.DocumentBuilderFactory.newInstance();
        org.w3c.dom.Document junit =
                factory.newDocumentBuilder().parse(reports.resolve("junit.xml").toFile());
        org.w3c.dom.Element suites = junit.getDocumentElement();
        // r1 and r2 failed their command; r3 was refused by the lock: a failure too, not a skip
        assertThat(suites.getAttribute("failures")).isEqualTo("3");
        org.w3c.dom.NodeList failures = junit.getElementsByTagName("failure");
        List<String> messages = new java.util.ArrayList<>();
        for (int i = 0; i < failures.getLength(); i++) {
            messages.add(((org.w3c.dom.Element) failures.item(i)).getAttribute("message"));
        }
        assertThat(messages).anyMatch(m -> m.startsWith("locked by run other\\x1b[2J (pid 1 on control node"));
        assertThat(junit.getElementsByTagName("skipped").getLength()).isZero();

        com.fasterxml.jackson.databind.JsonNode json = new com.fasterxml.jackson.databind.ObjectMapper()
                .readTree(reports.resolve("report.json").toFile());
        assertThat(json.toString()).doesNotContain("\\u001b", "\\u0007", "\\u0000");
        assertThat(Files.readString(reports.resolve("report.html"))).doesNotContain("\u001b", "\u0007", "\u0000");
    }

    @Test
    void aRefusedPlaybookLeavesNoEmptyRunDirectoryBehind() throws Exception {
        Files.writeString(playbook, "- hosts: redis\n  steps:\n    - restart_redis: {unit: \"{{ nope }}\"}\n");
        CliRun run = apply(playbook.toString(), "-i", inventory.toString());
        assertThat(run.exitCode()).as(run.toString()).isEqualTo(ExitCode.USAGE);
        Path runs = dir.resolve("fleetfix-runs");
        assertThat(Files.exists(runs) ? Files.list(runs).toList() : List.of()).isEmpty();
    }
}
