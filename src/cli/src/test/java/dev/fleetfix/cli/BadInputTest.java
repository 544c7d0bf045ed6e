package dev.fleetfix.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fleetfix.fake.FakeHost;
import dev.fleetfix.fake.TestClock;
import dev.fleetfix.rollout.RolloutPolicy;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import picocli.CommandLine;

/**
 * Bad input to {@code fleetfix apply}: exit 2, a message naming the pattern or file:line:col, and no
 * host contacted (every shell and Redis connection the run would open is recorded).
 */
class BadInputTest {
    @TempDir
    Path dir;

    private final Map<String, FakeHost> hosts = new LinkedHashMap<>();
    private final List<String> contacted = new ArrayList<>();
    private final TestClock clock = new TestClock(Instant.parse("2026-11-28T01:30:00Z"));
    private Path inventory;

    @BeforeEach
    void fleet() throws IOException {
        for (String name : new String[] {"r1", "r2", "r3"}) {
            hosts.put(name, new FakeHost(name, dir));
        }
        inventory = write(
                "inventory.yaml",
                """
                all:
                  children:
                    redis:
                      hosts:
                        r1: {ansible_host: 127.0.0.1}
                        r2: {ansible_host: 127.0.0.1}
                        r3: {ansible_host: 127.0.0.1}
                """);
    }

    @Test
    void aYamlMistakeQuotesTheLineWithACaretAndAHintAndTouchesNothing() throws IOException {
        CliRun run =
                apply(playbook("- hosts: redis\n  steps:\n    - audit: {}\n   - thp: {enabled: never}\n"), "--check");

        assertThat(run.exitCode()).as(run.toString()).isEqualTo(ExitCode.USAGE);
        assertThat(run.stderr().lines().toList())
                .as(run.toString())
                .containsSubsequence(
                        "fleetfix: " + dir.resolve("play.yaml") + ":4:4: YAML syntax error: line 4 is indented 3"
                                + " spaces, which matches no level of the lines above it",
                        "  3 |     - audit: {}",
                        "  4 |    - thp: {enabled: never}",
                        "    |    ^");
        assertThat(run.stderr()).as(run.toString()).contains("  hint: keys of one mapping");
        assertThat(contacted).isEmpty();
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "[",
                "]",
                "~[",
                "a:[",
                "r1:[",
                "r1,[",
                "r1:]",
                "all[99999999999]",
                "redis[0:99999999999]",
                "~",
                "~ ",
                "r1,~",
                "r1:!~"
            })
    void aLimitThatCannotBeParsedExitsTwoAndTouchesNothing(String pattern) throws IOException {
        CliRun run = apply(playbook("- hosts: redis\n  steps:\n    - command: {cmd: \"true\"}\n"), "--limit", pattern);

        assertThat(run.exitCode()).as(run.toString()).isEqualTo(ExitCode.USAGE);
        assertThat(run.stderr()).as(run.toString()).contains("host pattern \"" + pattern + "\"");
        assertThat(contacted).isEmpty();
    }

    @ParameterizedTest
    @ValueSource(strings = {"[", "]", "~[", "redis:["})
    void aPlaysHostsThatCannotBeParsedNamesFileAndLine(String pattern) throws IOException {
        Path playbook = playbook("- name: p\n  hosts: \"" + pattern + "\"\n  steps:\n    - command: {cmd: \"true\"}\n");

        CliRun run = apply(playbook);

        assertThat(run.exitCode()).as(run.toString()).isEqualTo(ExitCode.USAGE);
        assertThat(run.stderr()).as(run.toString()).contains("play.yaml:1:3: hosts: host pattern \"" + pattern + "\"");
        assertThat(contacted).isEmpty();
    }

    @Test
    void aJinjaLookupInAnInventoryValueExitsTwoNamingItsPlaceAndTouchesNothing() throws IOException {
        // taken literally, it was sent to Redis as the password
        inventory = write(
                "inventory.yaml",
                """
                all:
                  children:
                    redis:
                      hosts:
                        r1: {ansible_host: 127.0.0.1, redis_password: "{{ lookup('env','REDIS_PW') }}"}
                """);

        CliRun run = apply(playbook("- hosts: redis\n  steps:\n    - command: {cmd: \"true\"}\n"));

        assertThat(run.exitCode()).as(run.toString()).isEqualTo(ExitCode.USAGE);
        assertThat(run.stderr())
                .as(run.toString())
                .contains(inventory + ":5:55: host r1: redis_password: only plain variable names are supported in"
                        + " '{{ lookup('env','REDIS_PW') }}'");
        assertThat(contacted).isEmpty();
    }

    @Test
    void aPlayThatTheLimitLeavesWithoutHostsSaysNoHostsMatched() throws IOException {
        Path playbook = playbook(
                """
                - name: first
                  hosts: r1
                  steps:
                    - command: {cmd: "true", changed_when: false}
                - name: second
                  hosts: r2
                  steps:
                    - command: {cmd: "true", changed_when: false}
                """);

        CliRun run = apply(playbook, "--limit", "r2", "--no-color");

        assertThat(run.exitCode()).as(run.toString()).isEqualTo(ExitCode.OK);
        assertThat(run.stdout()).contains("PLAY [first] skipping: no hosts matched");
        assertThat(contacted).containsOnly("r2");
    }

    @Test
    void aHugeTimeoutIsAnInputErrorWithItsPlace() throws IOException {
        CliRun run = apply(
                playbook("- hosts: redis\n  steps:\n    - command: {cmd: \"true\", timeout: 99999999999999999999s}\n"));

        assertThat(run.exitCode()).as(run.toString()).isEqualTo(ExitCode.USAGE);
        assertThat(run.stderr())
                .contains("play.yaml:3:7: command (host r1): timeout:")
                .contains("too large");
        assertThat(contacted).isEmpty();
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "r9:99999999999: {}",
                "web[0:99999999999]: {}",
                "web[0:99999999]: {}",
                "r9: {jump: \"ops@bastion:99999999999\"}",
                "r9: {jump: \"ops@bastion:ssh\"}"
            })
    void anInventoryNumberThatOverflowsIsAnInputErrorWithItsPlace(String host) throws IOException {
        Path bad = write("bad.yaml", "all:\n  hosts:\n    " + host + "\n");

        CliRun run = apply(playbook("- hosts: all\n  steps:\n    - command: {cmd: \"true\"}\n"), "-i", bad.toString());

        assertThat(run.exitCode()).as(run.toString()).isEqualTo(ExitCode.USAGE);
        assertThat(run.stderr()).as(run.toString()).containsPattern("bad\\.yaml:3:\\d+: ");
        assertThat(contacted).isEmpty();
    }

    @Test
    void aUnitNameWithANewlineIsRefusedBeforeAnyHostIsTouched() throws IOException {
        Path bad = write(
                "bad.yaml",
                "all:\n  hosts:\n    r1:\n      redis_service: \"redis\\n[Service]\\nExecStartPre=/bin/touch /tmp/x\"\n");

        CliRun run =
                apply(playbook("- hosts: all\n  steps:\n    - persist_thp: {method: systemd}\n"), "-i", bad.toString());

        assertThat(run.exitCode()).as(run.toString()).isEqualTo(ExitCode.USAGE);
        assertThat(run.stderr())
                .contains(
                        "bad.yaml:4:22: host r1: redis_service: \"redis\\n[Service]\\nExecStartPre=/bin/touch /tmp/x\""
                                + " is not a systemd unit name");
        assertThat(contacted).isEmpty();
    }

    @Test
    void aBeforeUnitWithANewlineIsRefusedBeforeAnyHostIsTouched() throws IOException {
        Path playbook = playbook(
                """
                - hosts: all
                  steps:
                    - persist_thp: {method: systemd, before_unit: "redis\\n[Service]\\nExecStartPre=/bin/touch /tmp/x"}
                """);

        CliRun run = apply(playbook);

        assertThat(run.exitCode()).as(run.toString()).isEqualTo(ExitCode.USAGE);
        assertThat(run.stderr())
                .contains("play.yaml:3:7: persist_thp (host r1): before_unit: ")
                .contains("not a systemd unit name");
        assertThat(contacted).isEmpty();
    }

    @Test
    void aTemplateInArithmeticIsRefusedBeforeAnyHostIsTouched() throws IOException {
        Path bad = write("vars.yaml", "all:\n  vars:\n    evil: \"a[$(touch /tmp/x)]\"\n  hosts:\n    r1:\n");

        CliRun run = apply(
                playbook("- hosts: all\n  steps:\n    - command: {cmd: \"echo $(( {{ evil }} + 1 ))\"}\n"),
                "-i",
                bad.toString());

        assertThat(run.exitCode()).as(run.toString()).isEqualTo(ExitCode.USAGE);
        assertThat(run.stderr())
                .contains(
                        "play.yaml:3:7: command.cmd (host r1): the template at character 10 is inside" + " arithmetic");
        assertThat(contacted).isEmpty();
    }

    @Test
    void aDuplicateHostIsAWarningAsInAnsible() throws IOException {
        Path dup = write("dup.yaml", "all:\n  hosts:\n    r1: {}\n    r1: {}\n");

        CliRun run = apply(
                playbook("- hosts: all\n  steps:\n    - command: {cmd: \"true\"}\n"), "-i", dup.toString(), "--check");

        assertThat(run.stderr()).contains("[WARNING]: ").contains("dup.yaml:4:5: duplicate key \"r1\"");
    }

    @Test
    void aKeyWrittenTwiceInAPlaybookIsAWarningOnTheInventorysChannelAndTheLastValueRuns() throws IOException {
        Path inventory = write("hosts.yaml", "all:\n  hosts:\n    r1: {}\n");

        CliRun run = apply(
                playbook("- name: first\n  name: second\n  hosts: all\n  steps:\n    - command: {cmd: \"true\"}\n"),
                "-i",
                inventory.toString(),
                "--check");

        assertThat(run.stderr())
                .as(run.toString())
                .contains("[WARNING]: " + dir.resolve("play.yaml")
                        + ":2:3: duplicate key \"name\" (first at line 1); using the last value only");
        assertThat(run.stdout()).as(run.toString()).contains("second").doesNotContain("first");
    }

    /** Issue 18, item 13: {@code -i /dev/zero} read until OutOfMemoryError. */
    @Test
    @Timeout(60) // read until memory runs out, it never ends (or ends in an OutOfMemoryError, not this message)
    void anInventoryThatIsNotARegularFileIsRefusedAtOnce() throws IOException {
        Path playbook = playbook("- hosts: all\n  steps:\n    - command: {cmd: \"true\"}\n");

        CliRun run = apply(playbook, "-i", "/dev/zero");

        assertThat(run.exitCode()).as(run.toString()).isEqualTo(ExitCode.USAGE);
        // refused for what it is, so without reading it
        assertThat(run.stderr()).as(run.toString()).contains("/dev/zero").contains("not a regular file");
        assertThat(contacted).isEmpty();
    }

    @Test
    void aDirectoryGivenAsThePlaybookIsRefused() throws IOException {
        Path directory = Files.createDirectory(dir.resolve("playbooks"));

        CliRun run = apply(directory);

        assertThat(run.exitCode()).as(run.toString()).isEqualTo(ExitCode.USAGE);
        assertThat(run.stderr()).as(run.toString()).contains(directory + ": playbook is a directory, not a YAML file");
        assertThat(contacted).isEmpty();
    }

    /**
     * A playbook may come from a pipe ({@code apply <(...)}): it is read up to the size limit, never further. The pipe
     * counts what the run took from it (a bound on the run's time said the same only on a fast machine).
     */
    @Test
    @Timeout(60) // a run that read on would never end
    void anEndlessPlaybookIsReadOnlyUpToTheSizeLimit() throws Exception {
        Path pipe = dir.resolve("endless.yaml");
        assertThat(new ProcessBuilder("mkfifo", pipe.toString()).start().waitFor())
                .isZero();
        AtomicLong written = new AtomicLong();
        Thread writer = new Thread(() -> {
            byte[] zeros = new byte[64 * 1024];
            try (OutputStream out = Files.newOutputStream(pipe)) {
                while (true) {
                    out.write(zeros);
                    written.addAndGet(zeros.length);
                }
            } catch (IOException e) {
                // the run closed its end
            }
        });
        writer.setDaemon(true);
        writer.start();

        CliRun run = apply(pipe);
        writer.join();

        assertThat(run.exitCode()).as(run.toString()).isEqualTo(ExitCode.USAGE);
        assertThat(run.stderr())
                .as(run.toString())
                .contains(pipe + ": playbook is larger than the size limit of 32 MiB");
        // what the run read, plus what the pipe and one write held when it closed its end
        assertThat(written.get())
                .as("bytes taken from the pipe")
                .isGreaterThan(32L * 1024 * 1024)
                .isLessThanOrEqualTo(33L * 1024 * 1024);
        assertThat(contacted).isEmpty();
    }

    private Path playbook(String yaml) throws IOException {
        return write("play.yaml", yaml);
    }

    private Path write(String name, String content) throws IOException {
        Path file = dir.resolve(name);
        Files.writeString(file, content);
        return file;
    }

    private CliRun apply(Path playbook, String... extra) {
        CommandLine cmd = Main.commandLine(Adapters.builder()
                .clock(clock)
                .sleeper(clock.sleeper())
                .shells(host -> {
                    contacted.add(host.name());
                    return hosts.get(host.name()).shell();
                })
                .redis((host, timeout) -> {
                    contacted.add(host.name());
                    return hosts.get(host.name()).redis().connect();
                })
                .policy(RolloutPolicy.of(2, Duration.ofMillis(10)))
                .runsHome(dir.resolve("fleetfix-runs"))
                .build());
        List<String> args = new ArrayList<>(List.of("apply", playbook.toString()));
        if (!List.of(extra).contains("-i")) {
            args.addAll(List.of("-i", inventory.toString()));
        }
        args.addAll(List.of(extra));
        return CliRun.of(cmd, args.toArray(String[]::new));
    }
}
