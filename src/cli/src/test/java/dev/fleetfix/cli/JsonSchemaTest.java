package dev.fleetfix.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.networknt.schema.Error;
import com.networknt.schema.InputFormat;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import dev.fleetfix.bench.plan.BenchRun;
import dev.fleetfix.fake.TestClock;
import dev.fleetfix.report.SyntheticRun;
import dev.fleetfix.report.files.ReportCollector;
import dev.fleetfix.report.files.ReportJson;
import dev.fleetfix.rollout.event.BenchmarkFinished;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every JSON document fleetfix prints, validated against the JSON Schema that docs/schema ships for it (draft
 * 2020-12), on the fake fleet: audit, apply (a run, a check, a failed host, --list-hosts), bench, report merge, and
 * the error document of each when its input is bad. The fake fleet has no Redis to benchmark: the benchmark sections
 * are checked on the synthetic run's report (four hosts, before and after rounds, comparisons and the fleet).
 */
class JsonSchemaTest {
    private static final ObjectMapper MAPPER = new ObjectMapper();
    /** The tests run in the project's top directory (as DocCommandTest reads docs/). */
    private static final Path SCHEMAS = Path.of("docs", "schema");

    @TempDir
    Path dir;

    private FakeFleet fleet;
    private Path inventory;
    private Path playbook;

    @BeforeEach
    void fleet() throws IOException {
        fleet = new FakeFleet(dir, new TestClock(Instant.parse("2026-11-28T01:30:00Z")), "r1", "r2");
        // the fake hosts' Redis port is one where nothing listens: the benchmark, which connects for real, finds no
        // Redis there, whatever this machine runs on 6379
        int closed;
        try (ServerSocket free = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            closed = free.getLocalPort();
        }
        inventory = Files.writeString(
                dir.resolve("inventory.yaml"),
                ("all:\n  vars: {redis_port: %d}\n  children:\n    redis:\n      hosts:\n"
                                + "        r1: {ansible_host: 127.0.0.1}\n        r2: {ansible_host: 127.0.0.1}\n")
                        .formatted(closed));
        playbook = Files.writeString(
                dir.resolve("thp-off.yaml"),
                """
                - name: thp off
                  hosts: redis
                  serial: 1
                  max_fail_percentage: 100
                  steps:
                    - thp: {}
                    - persist_thp: {method: systemd}
                    - restart_redis: {unit: redis-server.service}
                    - wait_healthy: {timeout: 10s}
                """);
    }

    @Test
    void auditsDocumentAndItsErrors() throws IOException {
        JsonNode audit = valid("audit", fleet.run("audit", "-i", inventory.toString(), "--format", "json"), 0, 1);
        assertThat(audit.at("/hosts/0/host").asText()).isEqualTo("r1");
        valid("audit", fleet.run("audit", "-i", inventory.toString(), "--json", "--forks", "4"), 0, 1);
        error(
                fleet.run("audit", "-i", inventory.toString(), "--json", "--forks", "0"),
                "forks must be a whole number of at least 1, was '0'");
        error(fleet.run("audit", "-i", dir.resolve("none.yaml").toString(), "--format", "json"), "no such file");
        error(fleet.run("audit", "-i", inventory.toString(), "--format", "json", "-K"), "no terminal");
    }

    @Test
    void applysReportInEveryShapeAndItsErrors() throws IOException {
        JsonNode report =
                valid("report", fleet.apply(playbook.toString(), "-i", inventory.toString(), "--format", "json"), 0);
        assertThat(report.at("/hosts/0/host").asText()).isEqualTo("r1");
        valid(
                "report",
                fleet.apply(playbook.toString(), "-i", inventory.toString(), "--format", "json", "--check"),
                0,
                3);
        valid(
                "host-list",
                fleet.apply(playbook.toString(), "-i", inventory.toString(), "--format", "json", "--list-hosts"),
                0);
        fleet.hosts().get("r2").failTransientlyAlways();
        Path reports = dir.resolve("reports");
        JsonNode failed = valid(
                "report",
                fleet.apply(
                        playbook.toString(),
                        "-i",
                        inventory.toString(),
                        "--format",
                        "json",
                        "--report",
                        reports.toString()),
                1);
        assertThat(failed.at("/hosts/1/outcome").asText()).isIn("failed", "unreachable");
        validFile("report", reports.resolve("report.json"));

        Files.writeString(playbook, "- hosts: redis\n  steps:\n    - thp: {enabled: sometimes}\n");
        JsonNode bad =
                error(fleet.apply(playbook.toString(), "-i", inventory.toString(), "--format", "json"), "sometimes");
        assertThat(bad.at("/error/file").asText()).isEqualTo(playbook.toString());
        assertThat(bad.at("/error/line").asInt()).isEqualTo(3);
        error(fleet.apply(playbook.toString(), "-i", inventory.toString(), "--format", "json", "--nope"), "--nope");
        error(fleet.apply(playbook.toString(), "-i", inventory.toString(), "--format=json", "-f", "-1"), "was '-1'");
    }

    @Test
    void benchsDocumentAndItsErrors() throws IOException {
        // no Redis answers the fake fleet's benchmark: a document of no runs, the failures on stderr
        JsonNode bench = valid("bench", fleet.run("bench", "-i", inventory.toString(), "-l", "r1", "--json"), 1);
        assertThat(bench.path("runs")).isEmpty();
        List<BenchRun> runs = SyntheticRun.events().stream()
                .filter(BenchmarkFinished.class::isInstance)
                .map(e -> ((BenchmarkFinished) e).run())
                .toList();
        JsonNode measured = MAPPER.readTree(ReportJson.writeBenchmarks("bench", runs));
        assertThat(measured.path("comparisons")).isNotEmpty();
        assertValid("bench", measured, "bench --json of the synthetic run's rounds");
        error(fleet.run("bench", "-i", inventory.toString(), "--json", "-t", "set"), "--tests set");
        error(fleet.run("bench", "-i", inventory.toString(), "--json", "--tests", "nope"), "nope");
    }

    @Test
    void reportMergesDocumentAndItsErrors() throws IOException {
        Path one = dir.resolve("one");
        Path two = dir.resolve("two");
        assertThat(fleet.apply(playbook.toString(), "-i", inventory.toString(), "-l", "r1", "--report", one.toString())
                        .exitCode())
                .isZero();
        assertThat(fleet.apply(playbook.toString(), "-i", inventory.toString(), "-l", "r2", "--report", two.toString())
                        .exitCode())
                .isZero();
        Path merged = dir.resolve("merged");
        JsonNode report = valid(
                "report",
                fleet.run(
                        "report", "merge", one.toString(), two.toString(), "-o", merged.toString(), "--format", "json"),
                0);
        assertThat(report.at("/hosts").findValuesAsText("host")).containsExactly("r1", "r2");
        validFile("report", merged.resolve("report.json"));

        ObjectNode tampered =
                (ObjectNode) MAPPER.readTree(two.resolve("report.json").toFile());
        tampered.put("schema_version", "3");
        Files.writeString(two.resolve("report.json"), tampered.toString());
        error(
                fleet.run(
                        "report", "merge", one.toString(), two.toString(), "-o", merged.toString(), "--format", "json"),
                "schema_version must be a whole number");
    }

    @Test
    void aReportWithBenchmarksIsValidToo() {
        ReportCollector collector = new ReportCollector();
        SyntheticRun.play(collector);
        JsonNode report = MAPPER.valueToTree(collector.report());
        JsonNode written = readTree(ReportJson.write(collector.report()));
        assertThat(written.at("/benchmarks/fleet")).isNotEmpty();
        assertValid("report", written, "the synthetic run's report.json");
        assertThat(report).isNotNull();
    }

    private static JsonNode readTree(String text) {
        try {
            return MAPPER.readTree(text);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** The command's stdout: one document, valid against {@code schema}, with one of {@code exits}. */
    private JsonNode valid(String schema, CliRun run, int... exits) throws IOException {
        assertThat(List.of(run.exitCode())).as(run.toString()).isSubsetOf(boxed(exits));
        JsonNode document = onlyDocument(run.stdout(), run);
        assertValid(schema, document, run.toString());
        return document;
    }

    private void validFile(String schema, Path file) throws IOException {
        assertValid(schema, MAPPER.readTree(file.toFile()), file.toString());
    }

    /** An error document on stdout, valid against error.schema.json, with the message on stderr too. */
    private JsonNode error(CliRun run, String words) throws IOException {
        assertThat(run.exitCode()).as(run.toString()).isIn(ExitCode.USAGE, ExitCode.FINDINGS);
        JsonNode document = onlyDocument(run.stdout(), run);
        assertValid("error", document, run.toString());
        assertThat(document.at("/error/message").asText()).as(run.toString()).contains(words);
        assertThat(document.at("/error/exit_code").asInt()).isEqualTo(run.exitCode());
        assertThat(run.stderr()).as(run.toString()).contains(words);
        return document;
    }

    private static void assertValid(String schema, JsonNode document, String what) {
        String text;
        try {
            text = Files.readString(SCHEMAS.resolve(schema + ".schema.json"));
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        Schema checker = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12)
                .getSchema(text, InputFormat.JSON);
        List<Error> errors = checker.validate(document);
        assertThat(errors)
                .as("%s against docs/schema/%s.schema.json", what, schema)
                .isEmpty();
    }

    private static JsonNode onlyDocument(String text, CliRun run) throws IOException {
        try (JsonParser parser = MAPPER.createParser(text)) {
            JsonNode node = MAPPER.readTree(parser);
            assertThat(node).as("a JSON document on stdout of " + run).isNotNull();
            assertThat(parser.nextToken())
                    .as("what follows the document of " + run)
                    .isNull();
            return node;
        }
    }

    private static List<Integer> boxed(int... values) {
        return java.util.Arrays.stream(values).boxed().toList();
    }
}
