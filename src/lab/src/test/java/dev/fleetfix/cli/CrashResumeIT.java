package dev.fleetfix.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fleetfix.inventory.Host;
import dev.fleetfix.inventory.ansible.InventoryLoader;
import dev.fleetfix.lab.LabFleetExtension;
import dev.fleetfix.lab.LabHostSpec;
import dev.fleetfix.redis.RedisNode;
import dev.fleetfix.redis.jedis.JedisConnector;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A run killed with SIGKILL inside a restart, then resumed: lab-1 alone (RDB save points) is killed in its BGSAVE,
 * lab-2 (primary, no persistence) right after its FAILOVER to lab-3, its replica. After the resume every host's
 * Redis has run under THP never (a new run_id), the roles are what they were, every key is kept, and no fleetfix key,
 * lock or record is left. Also without a crash: a restart that timed out is done by the next plain run.
 *
 * <p>It runs beside another lab test: it measures nothing, and each kill waits for a state of its own hosts that lasts
 * (a BGSAVE slowed to 2.5 s, a replica role held through a restart), polled four times a second, not for a moment
 * in time.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class CrashResumeIT {
    private static final String RECORD = "/var/lib/fleetfix/restart-pending";
    private static final String PLAYBOOK =
            """
            - name: thp off
              hosts: all
              serial: 1
              steps:
                - audit: {}
                - thp: {enabled: never, defrag: never}
                - persist_thp: {method: auto}
                - restart_redis: {timeout: %s, failback: true}
                - wait_healthy: {timeout: 60s, gates: [ping, loading_done, role_unchanged, replica_synced]}
            """;

    @TempDir
    static Path dir;

    @RegisterExtension
    static final LabFleetExtension fleet = LabFleetExtension.of(
            LabHostSpec.named("lab-1"),
            LabHostSpec.named("lab-2").withSave(""),
            LabHostSpec.named("lab-3").withSave("").withReplicaOf("lab-2"));

    private static LabData lab;
    private static Map<String, String> seeded;

    @BeforeAll
    static void prepareHosts() {
        lab = new LabData(fleet.get(), List.of("lab-1", "lab-2", "lab-3"));
        lab.cli("lab-1", "DEBUG POPULATE 50000 user 32");
        lab.seed("lab-2", "user", 5000);
        lab.awaitKeys("lab-3", 5000);
        seeded = lab.digests();
    }

    private static Path playbook(String timeout) throws IOException {
        Path file = dir.resolve("thp-off-" + timeout + ".yaml");
        Files.writeString(file, PLAYBOOK.formatted(timeout));
        return file;
    }

    /** Each key of lab-1 costs a save 50 µs: 2.5 s for the lot, until Redis restarts. */
    private static void slowSaves() {
        lab.cli("lab-1", "CONFIG SET rdb-key-save-delay 50");
    }

    private static String runId(String host) {
        return lab.runId(host);
    }

    /** fleetfix apply as a process of its own, killed with SIGKILL once {@code killWhen} holds on the lab. */
    private static Path applyKilled(String limit, String killWhen, String expected) throws Exception {
        return applyKilled(limit, () -> lab.cli(limit, killWhen).contains(expected), expected, 250);
    }

    /**
     * INFO server and replication of {@code host}'s Redis, read from this JVM: a poll of milliseconds, where
     * {@code redis-cli} on the host costs a {@code docker exec} of a few hundred on a busy machine, longer than some
     * moments last (a restarted replica's link up until its failback). Empty while Redis does not answer.
     */
    private static Map<String, String> liveInfo(Host host) {
        try (RedisNode node = new JedisConnector().connect(host, Duration.ofSeconds(1))) {
            Map<String, String> info = new HashMap<>(node.info("server"));
            info.putAll(node.info("replication"));
            return info;
        } catch (RuntimeException e) {
            return Map.of();
        }
    }

    /** fleetfix apply as a process of its own, killed once {@code moment} holds, asked every {@code everyMillis}. */
    private static Path applyKilled(
            String limit, java.util.function.BooleanSupplier moment, String expected, long everyMillis)
            throws Exception {
        // a run directory of its own: a journal left there by an earlier test's run would be resumed instead
        Path runDir = dir.resolve("run-" + limit + "-" + System.nanoTime());
        Process run = new ProcessBuilder(FleetfixJvm.command(
                        "apply",
                        playbook("60s").toString(),
                        "-i",
                        fleet.inventoryFile().toString(),
                        "--limit",
                        limit,
                        "--no-color",
                        "--run-dir",
                        runDir.toString()))
                .redirectErrorStream(true)
                .redirectOutput(dir.resolve("killed-" + limit + ".out").toFile())
                .start();
        try {
            AtomicBoolean seen = new AtomicBoolean();
            LabData.await(
                    () -> {
                        // once seen it is the moment, whatever the host says a moment later
                        if (moment.getAsBoolean()) {
                            seen.set(true);
                        }
                        return seen.get();
                    },
                    90_000,
                    everyMillis);
            assertThat(seen).as("the moment to kill the run: " + expected).isTrue();
        } finally {
            new ProcessBuilder("kill", "-KILL", Long.toString(run.pid()))
                    .start()
                    .waitFor();
            run.waitFor(30, TimeUnit.SECONDS);
        }
        System.out.println("killed run:\n" + Files.readString(dir.resolve("killed-" + limit + ".out")));
        return runDir;
    }

    private static CliRun resume(Path runDir) {
        CliRun resumed = CliRun.of("apply", "--resume", runDir.toString(), "--no-color");
        System.out.println(resumed);
        return resumed;
    }

    /** Every key kept, no key, lock or record of fleetfix left; THP never where the run ran. */
    private static void leftAsAFullRunWould(String ranOn, String... others) {
        lab.assertIntact(seeded);
        assertThat(fleet.thpMode(ranOn)).contains("never");
        for (String host : Stream.concat(Stream.of(ranOn), Stream.of(others)).toList()) {
            assertThat(lab.cli(host, "--scan --pattern 'fleetfix:*'"))
                    .as(host + " fleetfix keys")
                    .isEmpty();
            assertThat(fleet.rootExec(host, "ls /run/lock/fleetfix.lock " + RECORD + " 2>/dev/null")
                            .stdout())
                    .as(host + " lock and record")
                    .isEmpty();
        }
    }

    @Test
    @Order(1)
    void aRunKilledInTheBgsaveRestartsRedisOnResume() throws Exception {
        String before = runId("lab-1");
        slowSaves();
        Path runDir = applyKilled("lab-1", "INFO persistence", "rdb_bgsave_in_progress:1");
        assertThat(runId("lab-1")).as("not restarted before the kill").isEqualTo(before);

        CliRun resumed = resume(runDir);
        assertThat(resumed.exitCode()).as(resumed.toString()).isZero();
        assertThat(runId("lab-1")).as("Redis ran under never since\n" + resumed).isNotEqualTo(before);
        assertThat(resumed.stdout())
                .contains("thp: no change")
                .contains("restart pending on the host since")
                .contains("under the old setting")
                .contains("host lab-1 done");
        leftAsAFullRunWould("lab-1");
    }

    @Test
    @Order(2)
    void aRestartThatTimedOutIsDoneByTheNextPlainRunAndCheckModeSaysWhy() throws Exception {
        fleet.rootExec("lab-1", "echo always > /sys/kernel/mm/transparent_hugepage/enabled");
        String before = runId("lab-1");
        slowSaves();
        CliRun timedOut = lab.apply(dir, PLAYBOOK.formatted("1s"), "--limit", "lab-1");
        assertThat(timedOut.exitCode()).as(timedOut.toString()).isEqualTo(1);
        assertThat(timedOut.stdout()).contains("BGSAVE failed").contains("failed:    lab-1");
        assertThat(runId("lab-1")).isEqualTo(before);
        LabData.await(() -> lab.cli("lab-1", "INFO persistence").contains("rdb_bgsave_in_progress:0"), 30_000);

        CliRun check = lab.apply(dir, PLAYBOOK.formatted("60s"), "--limit", "lab-1", "--check");
        CliRun again = lab.apply(dir, PLAYBOOK.formatted("60s"), "--limit", "lab-1");
        assertThat(again.exitCode()).as(again.toString()).isZero();
        assertThat(runId("lab-1")).as("Redis ran under never since\n" + again).isNotEqualTo(before);
        assertThat(again.stdout()).contains("restart pending on the host since").contains("host lab-1 done");
        // the forecast restarts for the same reason
        assertThat(check.stdout())
                .containsPattern("would change: " + LabData.restartSays("lab-1", "restart pending on the host since"))
                .contains("under the old setting");
        leftAsAFullRunWould("lab-1");
    }

    @Test
    @Order(3)
    void aRunKilledRightAfterTheFailoverFailsBackOnResume() throws Exception {
        String before = runId("lab-2");
        Path runDir = applyKilled("lab-2", "INFO replication", "role:slave");

        CliRun resumed = resume(runDir);
        assertThat(resumed.exitCode()).as(resumed.toString()).isZero();
        assertThat(lab.cli("lab-2", "INFO replication"))
                .as("the old primary is primary again\n" + resumed)
                .contains("role:master", "connected_slaves:1");
        assertThat(lab.cli("lab-3", "INFO replication")).contains("role:slave", "master_link_status:up");
        assertThat(runId("lab-2")).as("Redis ran under never since").isNotEqualTo(before);
        assertThat(resumed.stdout())
                .contains("a run that did not end handed the primary role over (FAILOVER to lab-3")
                .contains("failed back: lab-2 is primary again")
                .contains("gate role_unchanged passed");
        leftAsAFullRunWould("lab-2", "lab-3");
    }

    /**
     * Killed at the failback (lab-2 back as a replica under never, its failback next), resumed, then the operator
     * fails over to lab-3 on purpose: a plain re-run keeps lab-3 primary, though a record of that hand-over (as a run
     * killed after its failback's FAILOVER leaves it, in either form) is on lab-2, and removes it.
     */
    @Test
    @Order(4)
    void anOperatorsFailoverAfterAResumedFailbackIsNotUndoneByALaterRun() throws Exception {
        fleet.rootExec("lab-2", "echo always > /sys/kernel/mm/transparent_hugepage/enabled");
        String before = runId("lab-2");
        String lineage = info("lab-2", "master_replid");
        Host lab2 = InventoryLoader.load(fleet.inventoryFile()).host("lab-2").orElseThrow();
        Path runDir = applyKilled(
                "lab-2",
                () -> {
                    // the restart: nothing answers while Redis is down; then a new run id, a replica whose link
                    // is up, until the failback
                    Map<String, String> info = liveInfo(lab2);
                    return info.containsKey("run_id")
                            && !before.equals("run_id:" + info.get("run_id"))
                            && "up".equals(info.get("master_link_status"));
                },
                "lab-2 restarted as a replica",
                20);
        CliRun resumed = resume(runDir);
        assertThat(resumed.exitCode()).as(resumed.toString()).isZero();
        assertThat(lab.cli("lab-2", "INFO replication")).as(resumed.toString()).contains("role:master");
        leftAsAFullRunWould("lab-2", "lab-3");

        // the operator's failover, on purpose
        assertThat(lab.cli("lab-2", "FAILOVER")).isEqualTo("OK");
        LabData.await(
                () -> lab.cli("lab-3", "INFO replication").contains("role:master")
                        && lab.cli("lab-2", "INFO replication").contains("master_link_status:up"),
                30_000);
        String lab3 = info("lab-2", "master_host") + " " + info("lab-2", "master_port");
        for (String handover : List.of(
                "failover " + lab3 + " lab-3 failback " + lineage + " lab-2", "failover " + lab3 + " lab-3 failback")) {
            fleet.rootExec(
                    "lab-2",
                    "mkdir -p /var/lib/fleetfix; printf 'since=%s\\nreason=restart_redis began\\nrun=killed\\nhandover=%s\\n'"
                            + " \"$(( $(date +%s) - 86400 ))\" '" + handover + "' > " + RECORD);
            CliRun again = lab.apply(dir, PLAYBOOK.formatted("60s"), "--limit", "lab-2");
            System.out.println(again);
            assertThat(again.exitCode()).as(again.toString()).isZero();
            assertThat(again.stdout()).contains("dropped the hand-over record of run killed (FAILOVER to lab-3");
            assertThat(lab.cli("lab-3", "INFO replication"))
                    .as("the operator's primary stays primary")
                    .contains("role:master");
            assertThat(lab.cli("lab-2", "INFO replication")).contains("role:slave");
            leftAsAFullRunWould("lab-2", "lab-3");
        }
    }

    private static String info(String host, String field) {
        return lab.cli(host, "INFO replication")
                .lines()
                .filter(l -> l.startsWith(field + ":"))
                .map(l -> l.substring(field.length() + 1).strip())
                .findFirst()
                .orElseThrow();
    }
}
