package dev.fleetfix.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.fleetfix.fake.FakeHost;
import dev.fleetfix.fake.TestClock;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code apply --format json} and {@code audit --format json} for machines: stdout is one JSON document with a
 * {@code schema_version}, and what a person reads goes to stderr.
 */
class JsonOutputTest {
    private static final ObjectMapper MAPPER = new ObjectMapper();

    @TempDir
    Path dir;

    private final TestClock clock = new TestClock(Instant.parse("2026-11-28T01:30:00Z"));
    private FakeFleet fleet;
    private Map<String, FakeHost> hosts;
    private Path inventory;
    private Path playbook;

    @BeforeEach
    void fleet() throws Exception {
        fleet = new FakeFleet(dir, clock, "r1", "r2");
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
                """);
    }

    @Test
    void applyFormatJsonPrintsTheReportAsOneDocumentAndTheProgressOnStderr() throws IOException {
        CliRun run = run(
                AnsibleSettings.none(),
                "apply",
                playbook.toString(),
                "-i",
                inventory.toString(),
                "--format",
                "json",
                "--no-color");

        assertThat(run.exitCode()).as(run.toString()).isEqualTo(ExitCode.OK);
        JsonNode report = onlyDocument(run.stdout());
        assertThat(report.path("schema_version").asInt()).isEqualTo(3);
        assertThat(report.at("/run/outcome").asText()).isEqualTo("ok");
        assertThat(report.at("/run/done")).hasSize(2);
        assertThat(report.at("/hosts/0/host").asText()).isEqualTo("r1");
        assertThat(run.stderr())
                .contains("changed: [r1] thp: thp.enabled always → never")
                .contains("RECAP");
        assertThat(run.stdout()).doesNotContain("RECAP", "changed: [r1]");
    }

    @Test
    void aCheckRunWithPendingChangesStillPrintsOneDocument() throws IOException {
        CliRun run = run(
                AnsibleSettings.none(),
                "apply",
                playbook.toString(),
                "-i",
                inventory.toString(),
                "--check",
                "--format",
                "json");

        assertThat(run.exitCode()).as(run.toString()).isEqualTo(ExitCode.CHANGES_PENDING);
        JsonNode report = onlyDocument(run.stdout());
        assertThat(report.at("/run/check").asBoolean()).isTrue();
        assertThat(report.at("/run/changed")).hasSize(2);
        assertThat(run.stderr()).contains("check: changes pending on r1, r2");
    }

    @Test
    void ansibleStdoutCallbackJsonMakesJsonApplysDefault() throws IOException {
        AnsibleSettings ansible =
                new AnsibleSettings(Map.of("ANSIBLE_STDOUT_CALLBACK", "json"), dir, dir.resolve("home"), true);

        CliRun run = run(ansible, "apply", playbook.toString(), "-i", inventory.toString(), "--no-color");

        assertThat(run.exitCode()).as(run.toString()).isEqualTo(ExitCode.OK);
        assertThat(onlyDocument(run.stdout()).path("schema_version").asInt()).isEqualTo(3);
        assertThat(run.stderr()).contains("RECAP");

        CliRun table = run(ansible, "apply", playbook.toString(), "-i", inventory.toString(), "--format", "table");
        assertThat(table.stdout()).as(table.toString()).contains("RECAP");
    }

    @Test
    void listHostsFormatJsonIsOneDocumentOfPlaysAndBatches() throws IOException {
        CliRun run = run(
                AnsibleSettings.none(),
                "apply",
                playbook.toString(),
                "-i",
                inventory.toString(),
                "--list-hosts",
                "--format",
                "json");

        assertThat(run.exitCode()).as(run.toString()).isZero();
        JsonNode list = onlyDocument(run.stdout());
        assertThat(list.path("schema_version").asInt()).isEqualTo(3);
        assertThat(list.at("/plays/0/name").asText()).isEqualTo("thp off");
        assertThat(list.at("/plays/0/hosts").toString()).isEqualTo("[\"r1\",\"r2\"]");
        assertThat(hosts.values()).allSatisfy(h -> assertThat(h.scripts()).isEmpty());
    }

    @Test
    void auditFormatJsonNamesItsSchemaToolVersionAndTheClocksTime() throws IOException {
        CliRun run = run(AnsibleSettings.none(), "audit", "-i", inventory.toString(), "--format", "json");

        JsonNode audit = onlyDocument(run.stdout());
        assertThat(audit.path("schema_version").asInt()).as(run.toString()).isEqualTo(3);
        assertThat(audit.path("tool").asText()).isEqualTo("fleetfix");
        assertThat(audit.path("version").asText()).isNotBlank();
        assertThat(audit.path("generated_at").asText()).isEqualTo("2026-11-28T01:30:00Z");
        List<String> fields = new ArrayList<>();
        audit.fieldNames().forEachRemaining(fields::add);
        assertThat(fields).containsExactly("schema_version", "tool", "version", "generated_at", "hosts", "summary");
        assertThat(audit.at("/summary/hosts").asInt()).isEqualTo(2);
    }

    /** The one JSON document of {@code text}: anything after it (a second document, a stray line) fails. */
    private static JsonNode onlyDocument(String text) throws IOException {
        try (JsonParser parser = MAPPER.createParser(text)) {
            JsonNode node = MAPPER.readTree(parser);
            assertThat(node).as("a JSON document in: " + text).isNotNull();
            assertThat(node.isObject()).as(text).isTrue();
            assertThat(parser.nextToken())
                    .as("what follows the document in: " + text)
                    .isNull();
            return node;
        }
    }

    private CliRun run(AnsibleSettings ansible, String... args) {
        return CliRun.of(Main.commandLine(ansible, fleet.adapters()), args);
    }
}
