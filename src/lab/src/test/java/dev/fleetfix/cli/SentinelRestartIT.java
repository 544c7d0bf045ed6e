package dev.fleetfix.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fleetfix.lab.LabFleet;
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
 * Restarts through Redis Sentinel on a lab of three: lab-1 the primary, with RDB snapshots, lab-2
 * and lab-3 its replicas, and a Sentinel on every host (master {@code lab}, quorum 2). 10,000 keys
 * are seeded on lab-1; after every test each host's key count and dataset digest are what they
 * were, and every Redis answers.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class SentinelRestartIT {
    private static final List<String> HOSTS = List.of("lab-1", "lab-2", "lab-3");

    @TempDir
    static Path dir;

    @RegisterExtension
    static final LabFleetExtension fleet = LabFleetExtension.of(
            LabHostSpec.named("lab-1").withSentinel(),
            LabHostSpec.named("lab-2").withReplicaOf("lab-1").withSentinel(),
            LabHostSpec.named("lab-3").withReplicaOf("lab-1").withSentinel());

    private static LabData lab;
    private static Map<String, String> seeded;

    @BeforeAll
    static void prepareHosts() {
        lab = new LabData(fleet.get(), HOSTS);
        lab.seed("lab-1", "key", 10000);
        lab.awaitKeys("lab-2", 10000);
        lab.awaitKeys("lab-3", 10000);
        seeded = lab.digests();
        assertThat(seeded.get("lab-1")).startsWith("10000 ");
        assertThat(seeded.values()).containsOnly(seeded.get("lab-1"));
    }

    @AfterEach
    void dataIntactAndRedisRunning() {
        lab.assertIntact(seeded);
    }

    private static CliRun apply(String restartArgs, String... args) {
        return lab.apply(dir, LabData.restartPlaybook("\"100%\"", restartArgs), args);
    }

    private static String primaryBySentinel(String host) {
        return lab.sentinel(host, "SENTINEL GET-MASTER-ADDR-BY-NAME " + LabFleet.SENTINEL_MASTER)
                .lines()
                .findFirst()
                .orElse("");
    }

    @Test
    @Order(1)
    void aCheckRunShowsWhatSentinelMonitorsAndPutsReplicasFirst() {
        CliRun run = apply("", "--check");
        assertThat(run.exitCode()).as(run.toString()).isIn(ExitCode.OK, ExitCode.CHANGES_PENDING);
        assertThat(run.stdout())
                .contains("2 batches: [lab-2, lab-3] [lab-1]")
                .contains("topology: sentinel: lab-1 is primary 'lab' at "
                        + fleet.host("lab-1").address()
                        + ":" + fleet.host("lab-1").redisPort() + " (quorum 2 of 3 sentinels) with 2 replicas;"
                        + " failover through SENTINEL FAILOVER");
    }

    @Test
    @Order(2)
    void thePrimaryFailsOverThroughSentinelRestartsAndFailsBack() {
        CliRun run = apply(", failback: true").expectExit(0);
        assertThat(run.stdout())
                .contains("replica: resyncs from its primary")
                .contains("SENTINEL FAILOVER first")
                .contains("failed back: lab-1 is primary again")
                .contains("gate role_unchanged passed")
                .contains("ok: 3 hosts done");
        for (String host : HOSTS) {
            assertThat(primaryBySentinel(host))
                    .as("sentinel on " + host)
                    .isEqualTo(fleet.host("lab-1").address());
        }
        assertThat(lab.cli("lab-1", "INFO replication")).contains("role:master", "connected_slaves:2");
        // the failback's replica-priority is restored, at run time and in the file
        assertThat(lab.cli("lab-1", "CONFIG GET replica-priority")).endsWith("100");
        assertThat(fleet.rootExec("lab-1", "grep -c '^replicaof' /etc/redis/redis.conf")
                        .stdout()
                        .strip())
                .isEqualTo("0");
    }

    @Test
    @Order(3)
    void sentinelsThatDoNotAnswerLeaveThePrimaryRunning() {
        for (String host : HOSTS) {
            fleet.rootExec(host, "systemctl stop fleetfix-lab-sentinel");
        }
        try {
            CliRun run = apply("", "--limit", "lab-1").expectExit(1);
            assertThat(run.stdout())
                    .contains("no sentinel answered")
                    .contains("whether Sentinel manages it is unknown")
                    .contains("Redis left running")
                    .contains("failed:    lab-1");
            assertThat(lab.cli("lab-1", "INFO replication")).contains("role:master");
        } finally {
            for (String host : HOSTS) {
                fleet.rootExec(host, "systemctl start fleetfix-lab-sentinel");
            }
            LabData.await(
                    () -> HOSTS.stream().allMatch(h -> primaryBySentinel(h)
                            .equals(fleet.host("lab-1").address())),
                    30_000);
        }
    }

    @Test
    @Order(4)
    void withoutFailbackThePrimaryEndsAReplicaAndSentinelAgrees() {
        CliRun run = apply("", "--limit", "lab-1").expectExit(0);
        assertThat(run.stdout()).contains("SENTINEL FAILOVER lab: lab-").contains("gate role_unchanged passed");
        assertThat(lab.cli("lab-1", "INFO replication")).contains("role:slave", "master_link_status:up");
        String promoted = primaryBySentinel("lab-1");
        assertThat(promoted)
                .isIn(fleet.host("lab-2").address(), fleet.host("lab-3").address());
        for (String host : HOSTS) {
            assertThat(primaryBySentinel(host)).as("sentinel on " + host).isEqualTo(promoted);
        }
        // Sentinel rewrote lab-1's config: a restart keeps it a replica
        assertThat(fleet.rootExec("lab-1", "grep -c '^replicaof' /etc/redis/redis.conf")
                        .stdout()
                        .strip())
                .isEqualTo("1");
    }
}
