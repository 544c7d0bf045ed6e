package dev.fleetfix.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fleetfix.fake.FakeHost;
import dev.fleetfix.fake.TestClock;
import dev.fleetfix.rollout.RolloutPolicy;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** Planted Redis passwords appear in no output: console, report.json, junit.xml, report.html. */
class ReportSecretsTest {
    private static final String INLINE = "planted-inline-7f3a9c";
    private static final String IN_FILE = "planted-file-51be02";

    @TempDir
    Path dir;

    @Test
    void noOutputContainsAPlantedPassword() throws Exception {
        Map<String, FakeHost> hosts = new LinkedHashMap<>();
        for (String name : List.of("r1", "r2")) {
            hosts.put(name, new FakeHost(name, dir));
        }
        hosts.get("r2").failRestarts();
        Path passwordFile = dir.resolve("redis.pass");
        Files.writeString(passwordFile, IN_FILE + "\n");
        Path inventory = dir.resolve("inventory.yaml");
        Files.writeString(
                inventory,
                """
                all:
                  children:
                    redis:
                      hosts:
                        r1: {ansible_host: 127.0.0.1, redis_password: "%s"}
                        r2: {ansible_host: 127.0.0.1, redis_password_file: "%s"}
                """
                        .formatted(INLINE, passwordFile));
        Path playbook = dir.resolve("thp-off.yaml");
        Files.writeString(
                playbook,
                """
                - name: thp off
                  hosts: redis
                  serial: 1
                  max_fail_percentage: 100
                  steps:
                    - thp: {}
                    - persist_thp: {method: systemd}
                    - restart_redis: {unit: "{{ redis_service }}"}
                    - wait_healthy: {timeout: 10s}
                """);
        Path reports = dir.resolve("reports");
        Set<String> passwordsSeen = ConcurrentHashMap.newKeySet();

        TestClock clock = new TestClock(Instant.parse("2026-11-28T01:30:00Z"));
        CommandLine cmd = Main.commandLine(Adapters.builder()
                .clock(clock)
                .sleeper(clock.sleeper())
                .shells(host -> hosts.get(host.name()).shell())
                .redis((host, timeout) -> {
                    host.redis().auth().password().ifPresent(p -> passwordsSeen.add(p.reveal()));
                    host.redis().auth().passwordFile().ifPresent(p -> passwordsSeen.add(p.toString()));
                    return hosts.get(host.name()).redis().connect();
                })
                .policy(RolloutPolicy.of(2, Duration.ofMillis(10)))
                .build());
        CliRun run = CliRun.of(
                cmd, "apply", "-vv", playbook.toString(), "-i", inventory.toString(), "--report", reports.toString());
        CliRun show = CliRun.of("report", "show", reports.toString());

        // the secrets did reach the engine: the inline password and the file holding the other
        assertThat(passwordsSeen).contains(INLINE, passwordFile.toString());
        assertThat(run.stdout()).contains("FAILED").contains("report: " + reports.resolve("report.html"));
        assertThat(show.stdout()).contains("RECAP");
        StringBuilder everything = new StringBuilder(run.stdout() + run.stderr() + show.stdout() + show.stderr());
        List<Path> files;
        try (Stream<Path> s = Files.list(reports)) {
            files = s.toList();
        }
        assertThat(files)
                .extracting(p -> p.getFileName().toString())
                .containsExactlyInAnyOrder("report.json", "junit.xml", "report.html", "journal.jsonl");
        for (Path f : files) {
            everything.append(Files.readString(f));
        }
        assertThat(everything.toString()).doesNotContain(INLINE).doesNotContain(IN_FILE);
    }

    @Test
    void ansiblesOwnPasswordsAppearInNoOutputAtAnyVerbosity() throws Exception {
        Map<String, String> planted = new LinkedHashMap<>();
        for (String key : List.of(
                "ansible_password",
                "ansible_ssh_pass",
                "ansible_ssh_password",
                "ansible_become_password",
                "ansible_become_pass")) {
            planted.put(key, "planted-" + key.replace('_', '-') + "-9d21");
        }
        StringBuilder inventoryText = new StringBuilder("all:\n  vars:\n");
        planted.forEach((key, value) -> inventoryText
                .append("    ")
                .append(key)
                .append(": ")
                .append(value)
                .append('\n'));
        inventoryText.append("  children:\n    redis:\n      hosts:\n");
        for (String name : List.of("r1", "r2")) {
            inventoryText.append("        ").append(name).append(": {ansible_host: 127.0.0.1}\n");
        }
        Path inventory = Files.writeString(dir.resolve("inventory.yaml"), inventoryText.toString());
        Path playbook = Files.writeString(
                dir.resolve("thp-off.yaml"),
                """
                - name: thp off
                  hosts: redis
                  serial: 1
                  max_fail_percentage: 100
                  steps:
                    - thp: {}
                    - persist_thp: {method: systemd}
                    - restart_redis: {}
                    - wait_healthy: {timeout: 10s}
                """);

        StringBuilder everything = new StringBuilder();
        for (String verbosity : List.of("", "-v", "-vv", "-vvv")) {
            Path hostsDir = Files.createDirectories(dir.resolve("hosts" + verbosity));
            Map<String, FakeHost> hosts = new LinkedHashMap<>();
            hosts.put("r1", new FakeHost("r1", hostsDir));
            hosts.put("r2", new FakeHost("r2", hostsDir));
            hosts.get("r2").failRestarts();
            Path reports = dir.resolve("reports" + verbosity);
            TestClock clock = new TestClock(Instant.parse("2026-11-28T01:30:00Z"));
            Adapters adapters = Adapters.builder()
                    .clock(clock)
                    .sleeper(clock.sleeper())
                    .shells(host -> hosts.get(host.name()).shell())
                    .redis((host, timeout) -> hosts.get(host.name()).redis().connect())
                    .runsHome(Files.createDirectories(dir.resolve("runs" + verbosity)))
                    .policy(RolloutPolicy.of(2, Duration.ofMillis(10)))
                    .build();
            List<String> args = new ArrayList<>(
                    List.of("apply", playbook.toString(), "-i", inventory.toString(), "--report", reports.toString()));
            if (!verbosity.isEmpty()) {
                args.add(verbosity);
            }
            CliRun apply = CliRun.of(Main.commandLine(adapters), args.toArray(String[]::new));
            assertThat(apply.stdout()).as(apply.toString()).contains("FAILED");
            everything.append(apply.stdout()).append(apply.stderr());
            List<String> audit = new ArrayList<>(List.of("audit", "-i", inventory.toString(), "--json"));
            if (!verbosity.isEmpty()) {
                audit.add(verbosity);
            }
            CliRun audited = CliRun.of(Main.commandLine(adapters), audit.toArray(String[]::new));
            everything.append(audited.stdout()).append(audited.stderr());
            try (Stream<Path> files = Stream.concat(Files.walk(reports), Files.walk(dir.resolve("runs" + verbosity)))) {
                for (Path file : files.filter(Files::isRegularFile).toList()) {
                    everything.append(Files.readString(file));
                }
            }
        }
        for (String[] listing : new String[][] {{"--list"}, {"--host", "r1"}, {"--list", "-vvv"}}) {
            List<String> args = new ArrayList<>(List.of("inventory", "-i", inventory.toString()));
            args.addAll(List.of(listing));
            CliRun run = CliRun.of(args.toArray(String[]::new));
            assertThat(run.exitCode()).as(run.toString()).isZero();
            assertThat(run.stdout()).as(run.toString()).contains("ansible_become_password");
            everything.append(run.stdout()).append(run.stderr());
        }

        assertThat(everything.toString()).doesNotContain(planted.values());
    }
}
