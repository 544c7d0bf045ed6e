package dev.fleetfix.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fleetfix.lab.LabFleetExtension;
import dev.fleetfix.lab.LabHost;
import dev.fleetfix.lab.LabHostSpec;
import dev.fleetfix.lab.LabThp;
import dev.fleetfix.redis.jedis.HostileRedisServer;
import dev.fleetfix.redis.jedis.HostileRedisServer.Shape;
import dev.fleetfix.transport.ExecResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 31, item 4: a server on a host's Redis port that is no Redis ({@code *2000000000}, deep
 * nesting, a 2 GB bulk, a drip, a tarpit) killed {@code audit} and {@code apply} with an
 * OutOfMemoryError or a StackOverflowError: no recap, no report, no run end in the journal, host
 * locks left. Here fleetfix runs as its own process with a small heap, beside real lab hosts: the
 * hostile host fails with its line, the others are done, and the run ends as runs end.
 */
class HostileRedisIT {
    /** Small enough that a 2 GB or 2-billion-element allocation cannot succeed. */
    private static final String HEAP = "-Xmx256m";

    private static final String HOSTILE = "not a Redis server, or a hostile one";

    @RegisterExtension
    static final LabFleetExtension fleet = LabFleetExtension.of(
            LabHostSpec.named("hr-1").withThp(LabThp.ALWAYS),
            LabHostSpec.named("hr-2").withThp(LabThp.ALWAYS));

    @TempDir
    Path dir;

    @Test
    void auditFailsEachHostileEndpointAloneAndAuditsTheRest() throws Exception {
        List<HostileRedisServer> servers = new ArrayList<>();
        try {
            Path inventory = withHostileHosts(servers, List.of(Shape.values()));

            Instant start = Instant.now();
            ProgramRun run = fleetfix("audit", "-i", inventory.toString());
            Duration took = Duration.between(start, Instant.now());

            assertThat(run.exitCode()).as(run.toString()).isEqualTo(1);
            assertThat(run.stdout())
                    .as(run.toString())
                    .contains("7 hosts: ")
                    .doesNotContain("OutOfMemoryError", "StackOverflowError");
            // the hosts beside are audited in full, their Redis read
            for (String host : List.of("hr-1", "hr-2")) {
                assertThat(row(run, host))
                        .as(run.toString())
                        .contains(" master ")
                        .doesNotContain("unreachable");
            }
            for (int i = 0; i < servers.size(); i++) {
                Shape shape = Shape.values()[i];
                String endpoint =
                        fleet.host("hr-1").address() + ":" + servers.get(i).port();
                assertThat(run.stdout())
                        .as(run.toString())
                        .containsPattern("(?m)^" + name(shape) + " ")
                        .contains(
                                "risk: Redis is not answering on " + endpoint + ": INFO sent, then " + expected(shape));
            }
            assertThat(run.stderr()).as(run.toString()).doesNotContain("Exception", "Error");
            // the drip and the tarpit each cost a read timeout (5 s), the rest nothing
            assertThat(took).as(run.toString()).isLessThan(Duration.ofSeconds(60));
        } finally {
            for (HostileRedisServer server : servers) {
                server.close();
            }
        }
    }

    @Test
    void benchFailsEachHostileEndpointAloneAndMeasuresTheRest() throws Exception {
        List<Shape> shapes = List.of(Shape.HUGE_ARRAY, Shape.DEEP_NESTING, Shape.HUGE_BULK);
        List<HostileRedisServer> servers = new ArrayList<>();
        try {
            Path inventory = withHostileHosts(servers, shapes);
            String limit =
                    String.join(":", shapes.stream().map(HostileRedisIT::name).toList()) + ":hr-2";

            ProgramRun run = fleetfix(
                    "bench", "-i", inventory.toString(), "--limit", limit, "-n", "2000", "--rounds", "1", "--force");

            assertThat(run.exitCode()).as(run.toString()).isEqualTo(1);
            assertThat(run.stdout() + run.stderr())
                    .as(run.toString())
                    .doesNotContain("OutOfMemoryError", "StackOverflowError");
            for (int i = 0; i < shapes.size(); i++) {
                String host = name(shapes.get(i));
                String endpoint =
                        fleet.host("hr-1").address() + ":" + servers.get(i).port();
                assertThat(run.stdout())
                        .as(run.toString())
                        .contains(host + ": failed: host " + host + ": redis: " + endpoint + ": "
                                + expected(shapes.get(i)));
            }
            // measured after the three failed, in the same process
            assertThat(run.stdout()).as(run.toString()).containsPattern("(?m)^hr-2 +MIX +1 +[1-9]\\d* ");
        } finally {
            for (HostileRedisServer server : servers) {
                server.close();
            }
        }
    }

    /**
     * The lab's inventory and, before its hosts, one host per shape: reached over hr-1's sshd, its
     * Redis port the hostile server's (on hr-1's address).
     */
    private Path withHostileHosts(List<HostileRedisServer> servers, List<Shape> shapes) throws Exception {
        StringBuilder extra = new StringBuilder();
        LabHost beside = fleet.host("hr-1");
        for (Shape shape : shapes) {
            HostileRedisServer server = HostileRedisServer.start(beside.address(), shape);
            servers.add(server);
            extra.append("        ")
                    .append(name(shape))
                    .append(":\n          ansible_host: ")
                    .append(beside.address())
                    .append("\n          ansible_port: ")
                    .append(beside.sshPort())
                    .append("\n          redis_port: ")
                    .append(server.port())
                    .append('\n');
        }
        String lab = Files.readString(fleet.inventoryFile());
        String group = "    redis:\n      hosts:\n";
        assertThat(lab).contains(group);
        Path inventory = dir.resolve("inventory.yaml");
        Files.writeString(inventory, lab.replace(group, group + extra));
        return inventory;
    }

    @Test
    void applyFailsTheHostileHostAndFinishesTheRolloutWithItsRecapReportJournalAndNoLock() throws Exception {
        try (HostileRedisServer server =
                HostileRedisServer.start(fleet.host("hr-1").address(), Shape.DEEP_NESTING)) {
            LabHost hostile = fleet.host("hr-1");
            String block =
                    "        hr-1:\n          ansible_host: \"" + hostile.address() + "\"\n          ansible_port: "
                            + hostile.sshPort() + "\n          redis_port: " + hostile.redisPort() + "\n";
            String lab = Files.readString(fleet.inventoryFile());
            assertThat(lab).contains(block);
            Path inventory = dir.resolve("inventory.yaml");
            Files.writeString(
                    inventory,
                    lab.replace(
                            block,
                            block.replace("redis_port: " + hostile.redisPort(), "redis_port: " + server.port())));
            // hr-1 (hostile) is the first batch: the rollout goes on to hr-2 after it fails
            Path playbook = dir.resolve("thp-off.yaml");
            Files.writeString(
                    playbook,
                    """
                    - name: THP off beside a hostile endpoint
                      hosts: all
                      serial: 1
                      max_fail_percentage: 100
                      steps:
                        - audit: {}
                        - thp: {enabled: never, defrag: never}
                        - restart_redis: {unit: "{{ redis_service }}"}
                        - wait_healthy: {timeout: 30s, gates: [ping, loading_done]}
                    """);
            Path reports = dir.resolve("reports");

            Instant start = Instant.now();
            ProgramRun run =
                    fleetfix("apply", playbook.toString(), "-i", inventory.toString(), "--report", reports.toString());
            Duration took = Duration.between(start, Instant.now());

            assertThat(run.exitCode()).as(run.toString()).isEqualTo(1);
            assertThat(run.stdout())
                    .as(run.toString())
                    .contains(hostile.address() + ":" + server.port() + ": ")
                    // the preflight refuses it before its first change, with the restart step's reason
                    .contains("host hr-1 FAILED: refused before any change: restart_redis: ")
                    .contains("the server sent arrays nested over 32 deep: " + HOSTILE)
                    .contains("RECAP")
                    .doesNotContain("StackOverflowError", "unfinished: the run did not end");
            assertThat(fleet.thp("hr-2").strip()).as(run.toString()).isEqualTo("never");
            assertThat(run.stdout()).as(run.toString()).contains("host hr-2 done");
            assertThat(Files.readString(reports.resolve("report.json")))
                    .as(run.toString())
                    .contains("\"hr-1\"", "\"hr-2\"", "\"done\"");
            assertThat(Files.readAllLines(reports.resolve("journal.jsonl")))
                    .as(run.toString())
                    .anySatisfy(line -> assertThat(line).contains("\"run_ended\"", "HOSTS_FAILED"));
            for (String host : List.of("hr-1", "hr-2")) {
                ExecResult lock = fleet.rootExec(host, "ls /run/lock/fleetfix.lock 2>&1 || true");
                assertThat(lock.stdout()).as(host + ": no lock left\n" + run).contains("No such file");
            }
            assertThat(took).as(run.toString()).isLessThan(Duration.ofSeconds(90));
        }
    }

    private static String name(Shape shape) {
        return "hostile-" + shape.name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    private static String expected(Shape shape) {
        return switch (shape) {
            case HUGE_ARRAY -> "the server sent a reply of over 1048576 elements: " + HOSTILE;
            case DEEP_NESTING -> "the server sent arrays nested over 32 deep: " + HOSTILE;
            case HUGE_BULK -> "the server sent a reply over 64 MiB: " + HOSTILE;
            case DRIP -> "the server sent a reply still arriving 5000 ms after it began: " + HOSTILE;
            case TARPIT -> "no answer within 5000 ms";
        };
    }

    private static String row(ProgramRun run, String host) {
        return run.stdout()
                .lines()
                .filter(line -> line.startsWith(host + " "))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no row for " + host + "\n" + run));
    }

    /** fleetfix as an operator runs it: its own JVM, here with a small heap. */
    private ProgramRun fleetfix(String... args) {
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                HEAP,
                "-cp",
                System.getProperty("java.class.path"),
                Main.class.getName()));
        command.addAll(List.of(args));
        ProgramRun run = ProgramRun.of(dir, env -> {}, command);
        System.out.println(run);
        return run;
    }
}
