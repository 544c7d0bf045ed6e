package dev.fleetfix.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fleetfix.fake.FakeHost;
import dev.fleetfix.fake.TestClock;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * An Ansible operator's habits on fleetfix's command line: {@code -f} on every command that connects, with one rule
 * and one message; no short option that a typo turns into a safety override; {@code -l @FILE}, {@code -l ','} and
 * {@code -l ''} as ansible-playbook takes them; its prompts ({@code -k}, {@code -K}, {@code -J}) answered in one
 * line; {@code --start-at-task} judged on the steps the tags keep. ansible-playbook's own answer is the reference
 * (installed by the lab's preparation, so this runs with the lab tests; it fails, not skips, without it).
 */
class HabitsIT {
    @TempDir
    Path dir;

    private FakeFleet fleet;
    private Map<String, FakeHost> hosts;
    private Path inventory;
    private Path playbook;

    @BeforeEach
    void fleet() throws IOException {
        fleet = new FakeFleet(dir, new TestClock(Instant.parse("2026-11-28T01:30:00Z")), "r1", "r2", "r3");
        hosts = fleet.hosts();
        inventory = Files.writeString(dir.resolve("hosts.ini"), "[redis]\nr1\nr2\nr3\n");
        playbook = Files.writeString(
                dir.resolve("thp-off.yaml"),
                """
                - name: thp off
                  hosts: all
                  gather_facts: false
                  steps:
                    - thp: {}
                    - persist_thp: {method: systemd}
                    - name: benchmark before
                      benchmark: {name: thp, phase: before, duration: 1s, warmup: 0s}
                      tags: [benchmark]
                    - restart_redis: {unit: redis-server.service}
                    - wait_healthy: {timeout: 10s, gates: [ping]}
                    - name: benchmark after
                      benchmark: {name: thp, phase: after, duration: 1s, warmup: 0s}
                      tags: [benchmark]
                """
                        .replace("  gather_facts: false\n", ""));
    }

    // --- forks: one option, one rule, one message

    @ParameterizedTest
    @ValueSource(strings = {"audit", "apply", "bench", "inventory"})
    void everyCommandThatConnectsTakesForksWithOneRuleAndOneMessage(String command) {
        for (String forks : List.of("-f", "--forks")) {
            CliRun zero = fleet.run(args(command, forks, "0"));
            assertThat(zero.exitCode()).as(zero.toString()).isEqualTo(ExitCode.USAGE);
            assertThat(zero.stderr())
                    .as(zero.toString())
                    .contains(
                            "Invalid value for option '--forks': forks must be a whole number of at least 1, was '0'");
            CliRun word = fleet.run(args(command, forks, "many"));
            assertThat(word.stderr())
                    .as(word.toString())
                    .contains(
                            "Invalid value for option '--forks': forks must be a whole number of at least 1, was 'many'");
        }
        CliRun ok = fleet.run(args(command, "-f", "1"));
        assertThat(ok.exitCode()).as(ok.toString()).isZero();
        assertThat(hosts.values()).allSatisfy(h -> assertThat(h.scripts()).isEmpty());
    }

    /** The command with what makes it read files only, and {@code extra}. */
    private String[] args(String command, String... extra) {
        List<String> all = new ArrayList<>(List.of(command));
        switch (command) {
            case "apply" -> all.addAll(List.of(playbook.toString(), "-i", inventory.toString(), "--list-hosts"));
            case "inventory" -> all.addAll(List.of("-i", inventory.toString(), "--list"));
            default -> all.addAll(List.of("-i", inventory.toString(), "--list-hosts"));
        }
        all.addAll(List.of(extra));
        return all.toArray(String[]::new);
    }

    @Test
    void benchDashFIsForksAndNoTypoIsAnsweredWithASafetyOverride() {
        CliRun forks = fleet.run(args("bench", "-f", "1"));
        assertThat(forks.exitCode()).as(forks.toString()).isZero();
        assertThat(forks.stdout()).isEqualTo("r1\nr2\nr3\n");

        // picocli's nearest guess for these would be --force, which lets a benchmark run where it is refused
        for (String typo : List.of("--forc", "--forced", "--fore")) {
            CliRun run = fleet.run(args("bench", typo));
            assertThat(run.exitCode()).as(run.toString()).isEqualTo(ExitCode.USAGE);
            assertThat(run.stderr())
                    .as(run.toString())
                    .contains("Unknown option")
                    .doesNotContainPattern("(solutions|mean):.*--force\\b");
        }
    }

    @Test
    void benchsOldDashTSaysItsNewSpellingSinceDashTIsApplysTags() {
        CliRun run = fleet.run(args("bench", "-t", "set,get"));
        assertThat(run.exitCode()).as(run.toString()).isEqualTo(ExitCode.USAGE);
        assertThat(run.stderr())
                .as(run.toString())
                .contains("bench -t is gone: write --tests set,get (-t means --tags in apply)");
        assertThat(fleet.run("bench", "--help").stdout()).contains("--tests").doesNotContain("-t,");
        assertThat(fleet.run("apply", "--help").stdout()).contains("-t, --tags");
    }

    // --- Ansible's prompts

    @Test
    void ansiblesPromptsAreRecognisedAndSayInOneLineWhatFleetfixDoesInstead() {
        Map<String, String> instead = Map.of(
                "-k", "there is no terminal to ask for the SSH password on",
                "--ask-pass", "there is no terminal to ask for the SSH password on",
                "-K", "no terminal to ask for the become password",
                "--ask-become-pass", "no terminal to ask for the become password",
                "-J", "use --vault-password-file FILE",
                "--ask-vault-pass", "use --vault-password-file FILE",
                "--ask-vault-password", "use --vault-password-file FILE");
        instead.forEach((flag, words) -> {
            for (String command : List.of("apply", "audit", "bench")) {
                CliRun run = fleet.run(args(command, flag));
                assertThat(run.exitCode()).as(run.toString()).isEqualTo(ExitCode.USAGE);
                assertThat(run.stderr()).as(run.toString()).contains(words).doesNotContain("Unknown option");
                assertThat(run.stderr().lines()).as(run.toString()).hasSize(1);
                assertThat(run.stdout()).as(run.toString()).isEmpty();
            }
        });
        assertThat(hosts.values()).allSatisfy(h -> assertThat(h.scripts()).isEmpty());
    }

    @Test
    void thePromptsAreAnsiblePlaybooksOwnFlags() throws Exception {
        String help = ansible("ansible-playbook", "--help");
        for (String flag :
                List.of("-k", "--ask-pass", "-K", "--ask-become-pass", "--ask-vault-pass", "-f", "--forks")) {
            assertThat(help).as("ansible-playbook --help").containsPattern("(^|[\\s,\\[])" + flag + "\\b");
        }
        // -J is ansible-core's short form from 2.15 on; this machine's may be older
        String fleetfixHelp = fleet.run("apply", "--help").stdout();
        assertThat(fleetfixHelp).contains("-k, --ask-pass", "-K, --ask-become-pass", "-J, --ask-vault-pass");
    }

    // --- --limit as ansible-playbook reads it

    @Test
    void aLimitFileHoldsOnePatternALineAsAnsiblesRetryFiles() throws Exception {
        Path retry = Files.writeString(dir.resolve("thp-off.retry"), "r1\n\n  r3  \n");
        assertThat(listed("-l", "@" + retry)).containsExactly("r1", "r3");
        assertThat(listed("--limit", "@" + retry)).containsExactly("r1", "r3");
        // with other terms, and a line is never split again ("r1:r2" is one name, that no host has)
        assertThat(listed("-l", "r2,@" + retry)).containsExactly("r1", "r2", "r3");
        Files.writeString(retry, "!r2\n");
        assertThat(listed("-l", "@" + retry)).containsExactly("r1", "r3");
        sameAsAnsible("@" + retry);
        Files.writeString(retry, "r1\n\n  r3  \n");
        sameAsAnsible("@" + retry);
        sameAsAnsible("r2,@" + retry);
    }

    @Test
    void aLimitOfNoPatternIsEveryHostAsInAnsibleWithAWarning() throws Exception {
        Path empty = Files.writeString(dir.resolve("empty.retry"), "");
        for (String limit : List.of(",", "", " , ", "@" + empty)) {
            CliRun run = fleet.apply(playbook.toString(), "-i", inventory.toString(), "--list-hosts", "-l", limit);
            assertThat(run.exitCode()).as(run.toString()).isZero();
            assertThat(hostsOf(run.stdout())).as(run.toString()).containsExactly("r1", "r2", "r3");
            assertThat(run.stderr()).as(run.toString()).contains("names no host or group: every host is selected");
            sameAsAnsible(limit);
        }
    }

    @Test
    void aLimitFileThatCannotBeReadIsRefusedByName() throws Exception {
        CliRun missing = fleet.apply(
                playbook.toString(), "-i", inventory.toString(), "--list-hosts", "-l", "@" + dir.resolve("no.retry"));
        assertThat(missing.exitCode()).as(missing.toString()).isEqualTo(ExitCode.USAGE);
        assertThat(missing.stderr()).contains("limit file " + dir.resolve("no.retry") + ": no such file");
        CliRun directory =
                fleet.apply(playbook.toString(), "-i", inventory.toString(), "--list-hosts", "-l", "@" + dir);
        assertThat(directory.exitCode()).as(directory.toString()).isEqualTo(ExitCode.USAGE);
        assertThat(directory.stderr()).contains(dir + ": not a regular file (a directory)");
        CliRun nameless = fleet.apply(playbook.toString(), "-i", inventory.toString(), "--list-hosts", "-l", "r1,@");
        assertThat(nameless.exitCode()).as(nameless.toString()).isEqualTo(ExitCode.USAGE);
        assertThat(nameless.stderr()).contains("\"@\" names no limit file");
        CliRun device =
                fleet.apply(playbook.toString(), "-i", inventory.toString(), "--list-hosts", "-l", "@/dev/zero");
        assertThat(device.exitCode()).as(device.toString()).isEqualTo(ExitCode.USAGE);
        assertThat(device.stderr()).contains("/dev/zero: not a regular file");
    }

    // --- --start-at-task and the tags

    @Test
    void startAtTaskJudgesDependenciesOnTheStepsTheTagsKeep() {
        CliRun skipped = fleet.apply(
                playbook.toString(),
                "-i",
                inventory.toString(),
                "-l",
                "r1",
                "--start-at-task",
                "restart_redis",
                "--skip-tags",
                "benchmark",
                "--list-tasks");
        assertThat(skipped.exitCode()).as(skipped.toString()).isZero();
        assertThat(skipped.stdout()).contains("restart_redis").doesNotContain("benchmark after");
        // the after benchmark kept, its before benchmark cut: still refused
        CliRun kept = fleet.apply(
                playbook.toString(), "-i", inventory.toString(), "--start-at-task", "restart_redis", "--list-tasks");
        assertThat(kept.exitCode()).as(kept.toString()).isEqualTo(ExitCode.USAGE);
        assertThat(kept.stderr()).contains("it would skip 'benchmark before'");
    }

    // --- helpers

    private List<String> listed(String... limit) {
        List<String> args = new ArrayList<>(List.of(playbook.toString(), "-i", inventory.toString(), "--list-hosts"));
        args.addAll(List.of(limit));
        CliRun run = fleet.apply(args.toArray(String[]::new));
        assertThat(run.exitCode()).as(run.toString()).isZero();
        return hostsOf(run.stdout());
    }

    /** The host lines of a {@code --list-hosts} listing (fleetfix's or ansible-playbook's): after "hosts (N):". */
    private static List<String> hostsOf(String listing) {
        List<String> names = new ArrayList<>();
        boolean in = false;
        for (String line : listing.lines().toList()) {
            if (line.strip().matches("hosts \\(\\d+\\):")) {
                in = true;
            } else if (in && line.startsWith("      ") && !line.isBlank()) {
                names.add(line.strip());
            } else {
                in = false;
            }
        }
        return names;
    }

    private void sameAsAnsible(String limit) throws Exception {
        CliRun run = fleet.apply(playbook.toString(), "-i", inventory.toString(), "--list-hosts", "-l", limit);
        assertThat(new TreeSet<>(hostsOf(run.stdout())))
                .as("fleetfix and ansible-playbook --list-hosts -l '" + limit + "'")
                .isEqualTo(new TreeSet<>(ansibleHosts(inventory, limit)));
    }

    /** ansible-playbook --list-hosts of a one-play playbook on {@code hosts: all}; skipped where it is missing. */
    private List<String> ansibleHosts(Path inventory, String limit) throws Exception {
        Path book =
                Files.writeString(dir.resolve("ansible-play.yml"), "- hosts: all\n  gather_facts: no\n  tasks: []\n");
        List<String> command = new ArrayList<>(
                List.of("ansible-playbook", "-i", inventory.toString(), book.toString(), "--list-hosts"));
        if (limit != null) {
            command.addAll(List.of("-l", limit));
        }
        return hostsOf(ansible(command.toArray(String[]::new)));
    }

    private String ansible(String... command) throws Exception {
        Process process;
        try {
            process = new ProcessBuilder(command)
                    .directory(dir.toFile())
                    .redirectErrorStream(true)
                    .start();
        } catch (IOException e) {
            throw new AssertionError(
                    command[0] + " is not installed: install ansible-core (src/lab/src/lab/prepare.sh does): "
                            + e.getMessage(),
                    e);
        }
        process.getOutputStream().close();
        String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(120, TimeUnit.SECONDS)).isTrue();
        return out;
    }
}
