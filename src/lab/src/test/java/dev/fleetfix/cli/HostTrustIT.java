package dev.fleetfix.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.fleetfix.lab.LabFleetExtension;
import dev.fleetfix.lab.LabHostSpec;
import dev.fleetfix.transport.ExecResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Document;
import picocli.CommandLine;

/**
 * What hosts say and what runs do to each other, on real sshd: two applies started together on the
 * same host, hosts whose output is huge or hostile (terminal escapes, NUL, invalid UTF-8, a
 * 200 MB lock owner file), and a known_hosts line that negates the host it would otherwise match.
 */
class HostTrustIT {
    private static final String LOCK = "/run/lock/fleetfix.lock";

    @RegisterExtension
    static final LabFleetExtension fleet = LabFleetExtension.of(LabHostSpec.named("lab-1"), LabHostSpec.named("lab-2"));

    @TempDir
    Path dir;

    @AfterEach
    void unlock() {
        fleet.rootExec("lab-1", "rm -rf " + LOCK);
        fleet.rootExec("lab-2", "rm -rf " + LOCK);
    }

    private CliRun apply(Path playbook, String... args) {
        CommandLine cmd = Main.commandLine(
                Adapters.builder().runsHome(dir.resolve("fleetfix-runs")).build());
        List<String> all = new ArrayList<>(List.of(
                "apply", playbook.toString(), "-i", fleet.inventoryFile().toString(), "--no-color"));
        all.addAll(List.of(args));
        return CliRun.of(cmd, all.toArray(String[]::new));
    }

    @Test
    void ofTwoAppliesStartedTogetherOnOneHostExactlyOneWorksOnIt() throws Exception {
        Path playbook = Files.writeString(
                dir.resolve("slow.yaml"),
                """
                - name: slow
                  hosts: lab-1
                  steps:
                    - command: {cmd: "echo $$ >> /root/fleetfix-runs.log; sleep 3"}
                """);
        fleet.rootExec("lab-1", "rm -f /root/fleetfix-runs.log");
        ExecutorService pool = Executors.newFixedThreadPool(2);
        CountDownLatch go = new CountDownLatch(1);
        List<Future<CliRun>> runs = new ArrayList<>();
        for (String name : List.of("a", "b")) {
            runs.add(pool.submit(() -> {
                go.await();
                return apply(playbook, "--run-dir", dir.resolve("run-" + name).toString());
            }));
        }
        go.countDown();
        List<CliRun> done = new ArrayList<>();
        for (Future<CliRun> run : runs) {
            done.add(run.get());
        }
        pool.shutdown();

        assertThat(done).as(done.toString()).extracting(CliRun::exitCode).containsExactlyInAnyOrder(0, 1);
        CliRun refused =
                done.stream().filter(r -> r.exitCode() == 1).findFirst().orElseThrow();
        assertThat(refused.stdout())
                .as(refused.toString())
                .containsPattern("host lab-1 FAILED: locked by run \\d{8}T\\d{6}Z-[0-9a-f]{8} \\(pid "
                        + ProcessHandle.current().pid() + " on control node [^)]+\\) since \\S+ \\(\\d+ s ago\\):"
                        + " /run/lock/fleetfix.lock; another fleetfix run is working on this host");
        // the command ran once, and each journal holds its own run only
        assertThat(fleet.rootExec("lab-1", "cat /root/fleetfix-runs.log")
                        .stdout()
                        .lines())
                .hasSize(1);
        ObjectMapper json = new ObjectMapper();
        for (String name : List.of("a", "b")) {
            List<String> ids = new ArrayList<>();
            for (String line : Files.readAllLines(dir.resolve("run-" + name).resolve("journal.jsonl"))) {
                String id = json.readTree(line).path("run").asText();
                if (!id.isEmpty() && !ids.contains(id)) {
                    ids.add(id);
                }
            }
            assertThat(ids).as(name).hasSize(1);
        }
        assertThat(fleet.rootExec("lab-1", "test -e " + LOCK).exitCode())
                .as("both runs ended: no lock is left")
                .isNotZero();
    }

    @Test
    void aKnownHostsLineWhosePatternNegatesTheHostDoesNotVouchForIt() throws Exception {
        // OpenSSH: a negated pattern that matches takes the host out of the line, whatever else matches
        String lab1 = fleet.host("lab-1").address();
        int port1 = fleet.host("lab-1").sshPort();
        String negated = port1 == 22 ? lab1 : "[" + lab1 + "]:" + port1;
        List<String> lines = new ArrayList<>();
        for (String line : Files.readAllLines(fleet.knownHostsFile())) {
            // "127.0.0.12 KEY" becomes "127.0.0.*,!127.0.0.11 KEY" ([...]:port when the port is not 22)
            String[] hostAndKey = line.split(" ", 2);
            String pattern = hostAndKey[0].startsWith("[")
                    ? "[127.0.0.*]" + hostAndKey[0].substring(hostAndKey[0].indexOf(']') + 1)
                    : "127.0.0.*";
            lines.add(pattern + ",!" + negated + " " + hostAndKey[1]);
        }
        Path knownHosts = Files.write(dir.resolve("known_hosts"), lines);
        Path inventory = Files.writeString(
                dir.resolve("inventory.yml"),
                Files.readString(fleet.inventoryFile())
                        .replace(fleet.knownHostsFile().toString(), knownHosts.toString()));
        Path playbook = Files.writeString(
                dir.resolve("touch.yaml"),
                """
                - name: touch
                  hosts: all
                  max_fail_percentage: 100
                  steps:
                    - command: {cmd: "touch /root/fleetfix-negation"}
                """);
        for (String host : List.of("lab-1", "lab-2")) {
            fleet.rootExec(host, "rm -f /root/fleetfix-negation");
        }
        CommandLine cmd = Main.commandLine(
                Adapters.builder().runsHome(dir.resolve("fleetfix-runs")).build());
        CliRun run = CliRun.of(cmd, "apply", playbook.toString(), "-i", inventory.toString(), "--no-color");

        assertThat(run.exitCode()).as(run.toString()).isEqualTo(1);
        assertThat(run.stdout())
                .as(run.toString())
                .contains("host lab-1 UNREACHABLE: ")
                .contains("host key is not known: " + negated + " offers ")
                .doesNotContain("host lab-2 UNREACHABLE")
                .doesNotContain("host lab-2 FAILED");
        assertThat(fleet.rootExec("lab-1", "test -e /root/fleetfix-negation").exitCode())
                .as("lab-1 was not logged in to")
                .isNotZero();
        assertThat(fleet.rootExec("lab-2", "test -e /root/fleetfix-negation && rm /root/fleetfix-negation")
                        .exitCode())
                .as("lab-2, matched by the same pattern and not negated, was")
                .isZero();
        assertThat(Files.readAllLines(knownHosts)).isEqualTo(lines);
    }

    @Test
    void hugeAndHostileOutputIsBoundedSanitizedAndTheReportsParse() throws Exception {
        // lab-2 holds a 200 MB lock owner file full of escapes, as any local user could write it
        ExecResult owner = fleet.rootExec(
                "lab-2",
                "mkdir -p " + LOCK + " && { printf 'run=evil\\033]0;pwned\\007\\n'; head -c 200M /dev/zero"
                        + " | tr '\\0' '\\033'; } > " + LOCK + "/owner");
        assertThat(owner.exitCode()).as(owner.stderr()).isZero();
        Path playbook = Files.writeString(
                dir.resolve("hostile.yaml"),
                """
                - name: hostile
                  hosts: all
                  max_fail_percentage: 100
                  steps:
                    - command:
                        cmd: |
                          printf 'start\\033[2J\\007\\000\\377\\376\\n'; head -c 300M /dev/zero | tr '\\0' '\\033' >&2; printf '\\nthe end\\033[0m\\n' >&2; exit 4
                """);
        Path reports = dir.resolve("reports");
        CliRun run = apply(playbook, "--report", reports.toString());

        assertThat(run.exitCode()).as(run.toString()).isEqualTo(1);
        String seen = run.stdout() + run.stderr();
        assertThat(seen.length()).isLessThan(100_000);
        assertThat(seen).doesNotContain("\u001b", "\u0007", "\u0000");
        assertThat(seen)
                .contains("host lab-2 FAILED: locked by run evil\\x1b]0;pwned\\x07")
                .contains("command: exited 4: ")
                .contains(" dropped ... ");
        for (String file : List.of("junit.xml", "report.json", "report.html")) {
            assertThat(Files.size(reports.resolve(file))).as(file).isLessThan(1_000_000);
        }
        Document junit = DocumentBuilderFactory.newInstance()
                .newDocumentBuilder()
                .parse(reports.resolve("junit.xml").toFile());
        assertThat(junit.getDocumentElement().getAttribute("failures")).isEqualTo("2");
        new ObjectMapper().readTree(reports.resolve("report.json").toFile());
        assertThat(Files.readString(reports.resolve("report.html"))).doesNotContain("\u001b", "\u0000");
    }

    @Test
    void aBenchmarkStepRefusesAPrefixHoldingTheUsersKeysAndAForcedOneLeavesThem() throws Exception {
        String cli = "redis-cli -h " + fleet.host("lab-1").address() + " -p "
                + fleet.host("lab-1").redisPort();
        fleet.rootExec("lab-1", cli + " flushall; " + cli + " set user:1 alice; " + cli + " set user:2 bob");
        String step = "benchmark: {name: p, phase: before, duration: 1s, warmup: 100ms, rounds: 7, connections: 2,"
                + " prefix: 'user:'";
        for (String force : List.of("", ", force: true")) {
            Path playbook = Files.writeString(
                    dir.resolve("bench.yaml"),
                    "- name: bench\n  hosts: lab-1\n  steps:\n    - " + step + force + "}\n");
            CliRun run = apply(playbook);
            assertThat(run.exitCode()).as(run.toString()).isZero();
            if (force.isEmpty()) {
                assertThat(run.stdout())
                        .as(run.toString())
                        .contains("skipped: [lab-1] benchmark: ")
                        .contains("2 keys already exist under the prefix 'user:'");
            } else {
                assertThat(run.stdout()).as(run.toString()).contains("benchmark p before");
            }
            assertThat(fleet.rootExec("lab-1", cli + " --raw keys '*' | sort").stdout())
                    .as(run.toString())
                    .isEqualTo("user:1\nuser:2\n");
        }
    }
}
