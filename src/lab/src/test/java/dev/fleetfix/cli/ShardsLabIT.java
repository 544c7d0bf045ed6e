package dev.fleetfix.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fleetfix.lab.LabFleetExtension;
import dev.fleetfix.lab.LabHostSpec;
import dev.fleetfix.report.files.ReportJson;
import dev.fleetfix.report.model.FleetReport;
import dev.fleetfix.report.model.HostReport;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Three shards in three processes at once, on a lab of eight: lab-1 a primary with replicas lab-2 and lab-3 and a
 * Sentinel on each of the three (the inventory's group sentinel), lab-4 a primary with replicas lab-5 and lab-6 (known
 * only from what their Redis says), lab-7 and lab-8 alone. Every host's Redis is restarted, one host at a time per run,
 * failing over and back. The shards do every host once, keep both groups whole, keep every key, and their merged report
 * says of each host what one run of the same playbook said; the wall times of both are printed for docs/sharding.md.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ShardsLabIT {
    private static final List<String> HOSTS =
            List.of("lab-1", "lab-2", "lab-3", "lab-4", "lab-5", "lab-6", "lab-7", "lab-8");

    @TempDir
    static Path dir;

    @RegisterExtension
    static final LabFleetExtension fleet = LabFleetExtension.of(
            LabHostSpec.named("lab-1").withSentinel(),
            LabHostSpec.named("lab-2").withReplicaOf("lab-1").withSentinel(),
            LabHostSpec.named("lab-3").withReplicaOf("lab-1").withSentinel(),
            LabHostSpec.named("lab-4"),
            LabHostSpec.named("lab-5").withReplicaOf("lab-4"),
            LabHostSpec.named("lab-6").withReplicaOf("lab-4"),
            LabHostSpec.named("lab-7"),
            LabHostSpec.named("lab-8"));

    private static LabData lab;
    private static Map<String, String> seeded;
    private static Path playbook;
    private static FleetReport single;
    private static Duration singleWall;

    @BeforeAll
    static void prepareHosts() throws IOException {
        lab = new LabData(fleet.get(), HOSTS);
        lab.seed("lab-1", "key", 10000);
        lab.seed("lab-4", "other", 5000);
        lab.seed("lab-7", "seven", 1000);
        lab.seed("lab-8", "eight", 1000);
        lab.awaitKeys("lab-2", 10000);
        lab.awaitKeys("lab-3", 10000);
        lab.awaitKeys("lab-5", 5000);
        lab.awaitKeys("lab-6", 5000);
        seeded = lab.digests();
        playbook = dir.resolve("restart.yaml");
        Files.writeString(playbook, LabData.restartPlaybook("1", ", failback: true"));
    }

    @Test
    @Order(1)
    void theCutKeepsTheSentinelSetAndTheReplicationGroupWhole() {
        CliRun offline = CliRun.of("inventory", "-i", inventory(), "--shards", "3");
        assertThat(offline.exitCode()).as(offline.toString()).isZero();
        assertThat(offline.stdout())
                .contains("# groups from the inventory only")
                .contains("  lab-1, lab-2, lab-3  (sentinel set)\n")
                .contains("  lab-4  (alone)\n");

        CliRun checked = CliRun.of("inventory", "-i", inventory(), "--shards", "3", "--check");
        assertThat(checked.exitCode()).as(checked.toString()).isZero();
        assertThat(checked.stdout())
                .contains("# 8 hosts in 4 replication groups, cut into 3 shards")
                .contains("shard 1/3: 3 hosts\n  lab-1, lab-2, lab-3  (replication, sentinel set)\n")
                .contains("shard 2/3: 3 hosts\n  lab-4, lab-5, lab-6  (replication)\n")
                .contains("shard 3/3: 2 hosts\n  lab-7  (alone)\n  lab-8  (alone)\n");
    }

    @Test
    @Order(2)
    void oneRunRestartsEveryHost() {
        long start = System.nanoTime();
        ProgramRun run = fleetfix(
                "apply",
                playbook.toString(),
                "-i",
                inventory(),
                "--no-color",
                "--report",
                dir.resolve("single").toString(),
                "--run-dir",
                dir.resolve("single-run").toString());
        singleWall = Duration.ofNanos(System.nanoTime() - start);
        assertThat(run.exitCode()).as(run.toString()).isZero();
        single = ReportJson.read(dir.resolve("single").resolve(ReportJson.FILE));
        assertThat(single.run().done()).containsExactlyInAnyOrderElementsOf(HOSTS);
        lab.assertIntact(seeded);
    }

    @Test
    @Order(3)
    void threeShardsAtOnceDoEveryHostOnceKeepGroupsWholeAndMergeIntoTheSameReport() {
        long start = System.nanoTime();
        List<CompletableFuture<ProgramRun>> runs = new ArrayList<>();
        for (int k = 1; k <= 3; k++) {
            String shard = k + "/3";
            Path reports = dir.resolve("shard-" + k);
            Path runDir = dir.resolve("shard-run-" + k);
            runs.add(CompletableFuture.supplyAsync(() -> fleetfix(
                    "apply",
                    playbook.toString(),
                    "-i",
                    inventory(),
                    "--shard",
                    shard,
                    "--no-color",
                    "--report",
                    reports.toString(),
                    "--run-dir",
                    runDir.toString())));
        }
        List<ProgramRun> done = runs.stream().map(CompletableFuture::join).toList();
        Duration shardsWall = Duration.ofNanos(System.nanoTime() - start);
        System.out.printf(
                "ShardsLabIT wall time, 8 hosts, serial 1: one run %.1f s, 3 shards at once %.1f s%n",
                singleWall.toMillis() / 1000.0, shardsWall.toMillis() / 1000.0);
        done.forEach(run -> assertThat(run.exitCode()).as(run.toString()).isZero());

        List<Set<String>> shards = new ArrayList<>();
        for (int k = 1; k <= 3; k++) {
            FleetReport report = ReportJson.read(dir.resolve("shard-" + k).resolve(ReportJson.FILE));
            shards.add(new HashSet<>(report.run().done()));
            assertThat(done.get(k - 1).stderr()).contains("fleetfix: shard " + k + "/3: ");
        }
        List<String> all = shards.stream().flatMap(Set::stream).toList();
        assertThat(all).as("every host done exactly once").containsExactlyInAnyOrderElementsOf(HOSTS);
        assertThat(shards)
                .as("no group split")
                .contains(Set.of("lab-1", "lab-2", "lab-3"), Set.of("lab-4", "lab-5", "lab-6"));
        lab.assertIntact(seeded);

        Path merged = dir.resolve("merged");
        CliRun merge = CliRun.of(
                "report",
                "merge",
                dir.resolve("shard-1").toString(),
                dir.resolve("shard-2").toString(),
                dir.resolve("shard-3").toString(),
                "-o",
                merged.toString(),
                "-i",
                inventory(),
                "--no-color");
        assertThat(merge.exitCode()).as(merge.toString()).isZero();
        FleetReport fleetReport = ReportJson.read(merged.resolve(ReportJson.FILE));
        assertThat(outcomes(fleetReport)).isEqualTo(outcomes(single));
        assertThat(fleetReport.hosts()).extracting(HostReport::name).containsExactlyElementsOf(HOSTS);
    }

    private static Map<String, String> outcomes(FleetReport report) {
        return report.hosts().stream()
                .collect(Collectors.toMap(HostReport::name, HostReport::outcome, (a, b) -> a, TreeMap::new));
    }

    private static String inventory() {
        return fleet.inventoryFile().toString();
    }

    /** {@code java -jar src/cli/target/fleetfix.jar ARGS}: a process of its own, as an engine's job runs it. */
    private static ProgramRun fleetfix(String... args) {
        List<String> command = FleetfixJvm.command(args);
        try {
            ProgramRun run = ProgramRun.of(Path.of("").toAbsolutePath(), env -> {}, command);
            System.out.println(run);
            return run;
        } catch (UncheckedIOException e) {
            throw new AssertionError(e);
        }
    }
}
