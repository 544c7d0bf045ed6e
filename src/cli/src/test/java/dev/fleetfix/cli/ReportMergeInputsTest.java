package dev.fleetfix.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.fleetfix.fake.TestClock;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What {@code report merge} reads and writes, attacked (issue 42, findings 6 and 10): a report.json that is a link to
 * {@code /dev/zero}, a FIFO or a 3 GB file is refused by name (it was read whole: out of memory, or a hang), a {@code
 * schema_version} that is not a whole number is refused (it was coerced: "1" and 1.5 read as 1), and an output
 * directory that is a symbolic link is not written through. Each ends with exit 2 and the file named, quickly.
 */
class ReportMergeInputsTest {
    /** A guard against the hang these inputs caused, far above what the refusal takes. */
    private static final Duration HANG = Duration.ofSeconds(60);

    @TempDir
    Path dir;

    private FakeFleet fleet;
    private Path one;
    private Path two;

    @BeforeEach
    void twoShards() throws IOException {
        fleet = new FakeFleet(dir, new TestClock(Instant.parse("2026-11-28T01:30:00Z")), "r1", "r2");
        Path inventory = Files.writeString(
                dir.resolve("inventory.yaml"),
                "all:\n  children:\n    redis:\n      hosts:\n        r1: {ansible_host: 127.0.0.1}\n"
                        + "        r2: {ansible_host: 127.0.0.1}\n");
        Path playbook = Files.writeString(dir.resolve("thp-off.yaml"), "- hosts: redis\n  steps:\n    - thp: {}\n");
        one = dir.resolve("one");
        two = dir.resolve("two");
        for (String[] shard : new String[][] {{"r1", one.toString()}, {"r2", two.toString()}}) {
            CliRun run =
                    fleet.apply(playbook.toString(), "-i", inventory.toString(), "-l", shard[0], "--report", shard[1]);
            assertThat(run.exitCode()).as(run.toString()).isZero();
        }
    }

    private CliRun merge(String... more) {
        String[] args = new String[] {
            "report",
            "merge",
            one.toString(),
            two.toString(),
            "-o",
            dir.resolve("merged").toString()
        };
        String[] all = java.util.Arrays.copyOf(args, args.length + more.length);
        System.arraycopy(more, 0, all, args.length, more.length);
        return assertTimeoutPreemptively(HANG, () -> fleet.run(all));
    }

    private void refused(CliRun run, String... words) {
        assertThat(run.exitCode()).as(run.toString()).isEqualTo(ExitCode.USAGE);
        assertThat(run.stderr()).as(run.toString()).contains(words);
        assertThat(dir.resolve("merged/report.json")).doesNotExist();
    }

    @Test
    void aReportThatIsALinkToDevZeroIsRefusedByName() throws IOException {
        Path report = two.resolve("report.json");
        Files.delete(report);
        Files.createSymbolicLink(report, Path.of("/dev/zero"));

        refused(merge(), "report " + report + ": not a regular file (a device, FIFO or socket)");
    }

    @Test
    void aReportThatIsAFifoIsRefusedByNameAndNothingWaits() throws Exception {
        Path report = two.resolve("report.json");
        Files.delete(report);
        Process mkfifo = new ProcessBuilder("mkfifo", report.toString()).start();
        assertThat(mkfifo.waitFor()).isZero();

        refused(merge(), "report " + report + ": not a regular file");
    }

    @Test
    void aThreeGigabyteReportIsRefusedBeforeItIsRead() throws IOException {
        Path report = two.resolve("report.json");
        try (RandomAccessFile file = new RandomAccessFile(report.toFile(), "rw")) {
            file.setLength(3L * 1024 * 1024 * 1024); // sparse: no disk is used
        }

        refused(merge(), "report " + report + ": larger than the limit of 64 MiB");
    }

    @Test
    void aSchemaVersionThatIsNotAWholeNumberIsRefused() throws IOException {
        ObjectMapper mapper = new ObjectMapper();
        Path report = two.resolve("report.json");
        ObjectNode tree = (ObjectNode) mapper.readTree(report.toFile());
        for (String version : new String[] {"\"1\"", "1.5", "\"3\"", "3.0", "99", "null"}) {
            tree.set("schema_version", mapper.readTree(version));
            Files.writeString(report, tree.toString());
            CliRun run = merge();
            refused(run, report.toString(), "schema_version");
            assertThat(run.stderr()).as(run.toString()).contains(version.equals("99") ? "99" : "was " + version);
        }
    }

    @Test
    void aReportOfAnOlderSchemaVersionIsStillMerged() throws IOException {
        ObjectMapper mapper = new ObjectMapper();
        Path report = two.resolve("report.json");
        ObjectNode tree = (ObjectNode) mapper.readTree(report.toFile());
        tree.put("schema_version", 2);
        ObjectNode host = (ObjectNode) tree.withArray("hosts").get(0);
        host.set("name", host.remove("host"));
        Files.writeString(report, tree.toString());

        CliRun run = merge();

        assertThat(run.exitCode()).as(run.toString()).isZero();
        var merged = mapper.readTree(dir.resolve("merged/report.json").toFile());
        assertThat(merged.path("schema_version").asInt()).isEqualTo(3);
        assertThat(merged.path("hosts").findValuesAsText("host")).containsExactly("r1", "r2");
    }

    @Test
    void anOutputDirectoryThatIsASymbolicLinkIsNotWrittenThrough() throws IOException {
        Path elsewhere = Files.createDirectories(dir.resolve("elsewhere"));
        Files.createSymbolicLink(dir.resolve("merged"), elsewhere);

        CliRun run = merge();

        assertThat(run.exitCode()).as(run.toString()).isEqualTo(ExitCode.USAGE);
        assertThat(run.stderr())
                .as(run.toString())
                .contains("--output " + dir.resolve("merged") + ": is a symbolic link (to " + elsewhere + ")");
        try (var files = Files.list(elsewhere)) {
            assertThat(files).isEmpty();
        }
    }
}
