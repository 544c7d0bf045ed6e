package dev.fleetfix.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fleetfix.lab.LabFleetExtension;
import dev.fleetfix.lab.LabHostSpec;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Restarts in Redis Cluster on a lab of three nodes: lab-1 a primary without persistence and lab-2
 * its replica, lab-3 a primary of the other half of the slots with RDB snapshots and no replica.
 * 4,000 keys are written through cluster redirects; after every test each node's key count and
 * dataset digest are what they were, the cluster is ok on every node, and every Redis answers.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ClusterRestartIT {
    private static final List<String> HOSTS = List.of("lab-1", "lab-2", "lab-3");

    @TempDir
    static Path dir;

    @RegisterExtension
    static final LabFleetExtension fleet = LabFleetExtension.of(
            LabHostSpec.named("lab-1").withCluster().withSave(""),
            LabHostSpec.named("lab-2").withCluster().withSave("").withReplicaOf("lab-1"),
            LabHostSpec.named("lab-3").withCluster());

    private static LabData lab;
    private static Map<String, String> seeded;

    @BeforeAll
    static void prepareHosts() {
        lab = new LabData(fleet.get(), HOSTS);
        lab.seedCluster("lab-1", "key", 4000);
        int onFirstShard = Integer.parseInt(lab.cli("lab-1", "DBSIZE"));
        assertThat(onFirstShard).isBetween(1500, 2500);
        lab.awaitKeys("lab-2", onFirstShard);
        assertThat(Integer.parseInt(lab.cli("lab-3", "DBSIZE"))).isEqualTo(4000 - onFirstShard);
        seeded = lab.digests();
    }

    @AfterEach
    void dataIntactClusterOkAndRedisRunning() {
        lab.assertIntact(seeded);
        for (String host : HOSTS) {
            LabData.await(() -> lab.cli(host, "CLUSTER INFO").contains("cluster_state:ok"), 20_000);
            assertThat(lab.cli(host, "CLUSTER INFO")).as(host).contains("cluster_state:ok");
        }
    }

    private static CliRun apply(String restartArgs, String... args) {
        return lab.apply(dir, LabData.restartPlaybook("1", restartArgs), args);
    }

    @Test
    @Order(1)
    void aCheckRunShowsTheShardsAndTheSlotsWithoutReplica() {
        CliRun run = apply("", "--check");
        assertThat(run.exitCode()).as(run.toString()).isIn(ExitCode.OK, ExitCode.CHANGES_PENDING);
        assertThat(run.stdout())
                .contains("3 batches: [lab-2] [lab-1] [lab-3]")
                .contains("topology: cluster: 3 nodes, 2 primaries serving 16384 of 16384 slots;"
                        + " failover through CLUSTER FAILOVER on a replica")
                .containsPattern("topology: cluster: lab-3 serves slots [0-9-]+ with no replica: those slots are"
                        + " unavailable while it restarts");
    }

    @Test
    @Order(1)
    void bothEnginesBenchmarkAClusterPrimaryOnItsOwnSlotsAndLeaveNoKey() {
        for (String engine : List.of("builtin", "redis-benchmark")) {
            CliRun run = CliRun.of(
                            "bench",
                            "-i",
                            fleet.inventoryFile().toString(),
                            "--limit",
                            "lab-1",
                            "--engine",
                            engine,
                            "-n",
                            "3000",
                            "-c",
                            "4",
                            "--tests",
                            "set,get")
                    .expectExit(0);
            assertThat(run.stdout()).as(run.toString()).containsPattern("lab-1\\s+(SET|MIX)\\s+1\\s+\\d");
        }
        // the replica is refused, as outside a cluster
        CliRun replica = CliRun.of("bench", "-i", fleet.inventoryFile().toString(), "--limit", "lab-2", "-n", "100");
        assertThat(replica.stdout() + replica.stderr()).contains("refusing to benchmark");
        for (String host : HOSTS) {
            assertThat(lab.cli(host, "--scan --pattern 'fleetfix:*'")).as(host).isEmpty();
        }
    }

    @Test
    @Order(2)
    void thePrimaryFailsOverToItsReplicaRestartsAndFailsBack() {
        CliRun run = apply(", failback: true").expectExit(0);
        assertThat(run.stdout())
                .contains("cluster primary: CLUSTER FAILOVER on lab-2 (")
                .contains("failed back: lab-1 is primary again")
                .contains("primary, no replica: BGSAVE first (save points)")
                .contains("data check: ")
                .contains("ok: 3 hosts done");
        assertThat(lab.cli("lab-1", "ROLE")).startsWith("master");
        assertThat(lab.cli("lab-2", "ROLE")).startsWith("slave");
        // every key is still served, through whichever node holds its slot
        assertThat(fleet.rootExec(
                                "lab-3",
                                "redis-cli -c -h " + fleet.host("lab-3").address() + " -p "
                                        + fleet.host("lab-3").redisPort() + " GET key:1234")
                        .stdout()
                        .strip())
                .isEqualTo("value-1234");
    }

    @Test
    @Order(3)
    void withoutFailbackTheReplicaKeepsTheSlots() {
        CliRun run = apply("", "--limit", "lab-1").expectExit(0);
        assertThat(run.stdout()).contains("CLUSTER FAILOVER on lab-2").contains("gate role_unchanged passed");
        assertThat(lab.cli("lab-1", "ROLE")).startsWith("slave");
        assertThat(lab.cli("lab-2", "ROLE")).startsWith("master");
        assertThat(lab.cli("lab-2", "CLUSTER NODES")).containsPattern("myself,master - \\S+ \\S+ \\S+ connected [0-9]");
    }
}
