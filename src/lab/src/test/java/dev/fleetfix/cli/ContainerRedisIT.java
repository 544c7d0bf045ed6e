package dev.fleetfix.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fleetfix.lab.LabComposeRedis;
import dev.fleetfix.lab.LabFleetExtension;
import dev.fleetfix.lab.LabHostSpec;
import dev.fleetfix.lab.LabRedisContainer;
import dev.fleetfix.lab.LabServiceShape;
import dev.fleetfix.transport.ExecResult;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Redis in a Docker container on a host (issue 39), with an inventory that names no service: the lab host's Redis runs
 * in a sibling container sharing its PID namespace and network ({@link LabRedisContainer}), seen from inside the lab
 * host as on a Docker host; on {@code compose-3} it is a {@code docker compose} service ({@link LabComposeRedis}),
 * brought up by Debian's docker-compose at boot. With its data on a volume, {@code playbooks/thp-off.yaml} exits 0 on
 * both in one run, Redis restarted through {@code docker restart} and {@code docker-compose restart cache} in the
 * project's directory (new run_id), every key kept, no fleetfix key left, THP never after a reboot; after {@code
 * docker-compose up --force-recreate} (from a file given with {@code -f}) the keys are there, the audit reads the host
 * right and a restart goes through compose again; a project whose directory is gone fails the restart before any change.
 * Without a volume the host is refused before any change, its THP files, units and keys as they were.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ContainerRedisIT {
    private static final int KEYS = 2000;
    private static final String COMPOSE = "compose-3";
    private static final String RESTART = "- hosts: all\n  steps:\n    - restart_redis: {always: true}\n";

    @RegisterExtension
    static final LabFleetExtension fleet = LabFleetExtension.of(
            host("vol-1"),
            host("novol-2"),
            LabHostSpec.builder(COMPOSE)
                    .serviceInInventory(false)
                    .dockerCli(true)
                    .serviceShape(LabServiceShape.COMPOSE)
                    .build());

    private static final List<String> HOSTS = List.of("vol-1", "novol-2", COMPOSE);
    private static final Map<String, String> seeded = new LinkedHashMap<>();
    private static final Map<String, String> runIds = new LinkedHashMap<>();
    private static final Map<String, LabRedisContainer> containers = new LinkedHashMap<>();
    private static LabData lab;
    private static long started;

    @TempDir
    static Path dir;

    private static LabHostSpec host(String name) {
        return LabHostSpec.builder(name)
                .serviceInInventory(false)
                .dockerCli(true)
                .build();
    }

    @BeforeAll
    static void redisInContainers() {
        started = System.nanoTime();
        containers.put("vol-1", LabRedisContainer.start(fleet.get(), "vol-1", true));
        containers.put("novol-2", LabRedisContainer.start(fleet.get(), "novol-2", false));
        System.out.printf("ContainerRedisIT: containers up in %.1f s%n", (System.nanoTime() - started) / 1e9);
        lab = new LabData(fleet.get(), HOSTS);
        for (String host : HOSTS) {
            lab.seed(host, "user", KEYS);
            runIds.put(host, lab.runId(host));
            // as on a Docker host: the host's own Redis unit is off, the docker CLI sees the container
            assertThat(root(host, "systemctl is-enabled redis-server || true")).isEqualTo("disabled");
            assertThat(root(host, "docker ps --format '{{.Names}}'")).contains(containerName(host));
        }
        assertThat(root(COMPOSE, "cd " + LabComposeRedis.DIR + " && docker-compose ps --services"))
                .isEqualTo(LabComposeRedis.SERVICE);
        seeded.putAll(lab.digests());
        assertThat(fleet.get().inventoryFile()).content().doesNotContain("redis_service", "service:");
    }

    @AfterAll
    static void removeContainers() {
        containers.values().forEach(LabRedisContainer::close);
        System.out.printf(
                "ContainerRedisIT: %.1f s in all, after the fleet was up%n", (System.nanoTime() - started) / 1e9);
    }

    @Test
    @Order(1)
    void theAuditNamesTheContainerItsRuntimeAndItsComposeProject() {
        CliRun run = CliRun.of("audit", "-i", fleet.inventoryFile().toString());
        System.out.println(run);
        assertThat(run.stdout())
                .as(run.toString())
                .contains("run by docker container " + containers.get("vol-1").name())
                .contains("run by docker container " + containers.get("novol-2").name())
                .contains("run by docker container " + containerName(COMPOSE) + " (")
                .contains("compose project " + project() + " service " + LabComposeRedis.SERVICE);
    }

    @Test
    @Order(2)
    void aContainerWithoutAVolumeIsRefusedWithTheHostUntouched() {
        String host = "novol-2";
        String before = untouched(host);
        CliRun run = apply(host, "run-novol");
        System.out.println(run);

        assertThat(run.exitCode()).as(run.toString()).isNotZero();
        assertThat(run.stdout())
                .as(run.toString())
                .contains("refused before any change")
                .contains("data would be lost with the container: /data is not a volume");
        assertThat(untouched(host)).as("THP files, units and keys").isEqualTo(before);
        assertThat(lab.runId(host)).isEqualTo(runIds.get(host));
    }

    @Test
    @Order(3)
    void thpOffRestartsTheContainerAndTheComposeServiceKeepingEveryKey() {
        long applied = System.nanoTime();
        CliRun run = apply("vol-1," + COMPOSE, "run-vol");
        System.out.println(run);
        System.out.printf("ContainerRedisIT: thp-off on 2 hosts took %.1f s%n", (System.nanoTime() - applied) / 1e9);

        assertThat(run.exitCode()).as(run.toString()).isZero();
        assertThat(run.stdout())
                .as(run.toString())
                .contains("run by docker container " + containers.get("vol-1").name())
                .contains("compose service " + LabComposeRedis.SERVICE + " of project " + project()
                        + " (docker container " + containerName(COMPOSE) + ")");
        for (String host : List.of("vol-1", COMPOSE)) {
            assertThat(fleet.thpMode(host)).as(host).hasValue("never");
            assertThat(lab.runId(host)).as(host + ": Redis restarted").isNotEqualTo(runIds.get(host));
        }
        assertEveryKeyKeptAndNoFleetfixKeyLeft();
    }

    @Test
    @Order(4)
    void afterARebootThpIsNeverAndTheContainersRedisHasEveryKey() {
        fleet.reboot("vol-1");
        containers.get("vol-1").awaitRedis();
        // the compose project is brought up again by its unit; the lab's boot waits for its Redis
        fleet.reboot(COMPOSE);

        for (String host : List.of("vol-1", COMPOSE)) {
            assertThat(fleet.thpMode(host)).as(host + " after its reboot").hasValue("never");
        }
        assertEveryKeyKeptAndNoFleetfixKeyLeft();
    }

    /**
     * {@code docker-compose up --force-recreate} from a file given with {@code -f}: a new container on the same volume,
     * labelled with that file as v1 records it (relative); the audit reads the host as before and a restart goes through
     * compose with that file.
     */
    @Test
    @Order(5)
    void aRecreatedComposeContainerKeepsTheKeysAndIsReadAndRestartedAsBefore() {
        String before = root(COMPOSE, "docker inspect --format '{{.Id}}' " + containerName(COMPOSE));
        root(
                COMPOSE,
                "cd " + LabComposeRedis.DIR + " && mv docker-compose.yml redis.yml"
                        + " && docker-compose -f redis.yml up -d --force-recreate 2>&1");
        assertThat(root(COMPOSE, "docker inspect --format '{{.Id}}' " + containerName(COMPOSE)))
                .as("a new container")
                .isNotEqualTo(before);
        LabData.await(
                () -> fleet.get()
                        .rootExec(
                                COMPOSE,
                                "redis-cli -h " + fleet.get().host(COMPOSE).address() + " -p "
                                        + fleet.get().host(COMPOSE).redisPort() + " ping")
                        .stdout()
                        .contains("PONG"),
                60_000);
        assertEveryKeyKeptAndNoFleetfixKeyLeft();

        CliRun audit = CliRun.of("audit", "-i", fleet.inventoryFile().toString(), "--limit", COMPOSE);
        System.out.println(audit);
        assertThat(audit.exitCode()).as(audit.toString()).isIn(ExitCode.OK, ExitCode.FINDINGS);
        assertThat(audit.stdout())
                .as(audit.toString())
                .contains("compose project " + project() + " service " + LabComposeRedis.SERVICE)
                .contains("never");

        String runId = lab.runId(COMPOSE);
        CliRun restart = lab.apply(dir, RESTART, "--limit", COMPOSE);
        assertThat(restart.exitCode()).as(restart.toString()).isZero();
        assertThat(restart.stdout())
                .contains("compose service " + LabComposeRedis.SERVICE + " of project " + project());
        assertThat(lab.runId(COMPOSE)).as("Redis restarted").isNotEqualTo(runId);
        assertEveryKeyKeptAndNoFleetfixKeyLeft();
    }

    /**
     * A compose project whose directory was moved since its container was made: the restart fails before anything is
     * saved or recorded, naming the directory.
     */
    @Test
    @Order(6)
    void aComposeProjectWhoseDirectoryIsGoneIsRefusedBeforeAnyChange() {
        String runId = lab.runId(COMPOSE);
        root(COMPOSE, "mv " + LabComposeRedis.DIR + " " + LabComposeRedis.DIR + ".moved");
        try {
            CliRun run = lab.apply(dir, RESTART, "--limit", COMPOSE);
            assertThat(run.exitCode()).as(run.toString()).isNotZero();
            assertThat(run.stdout())
                    .as(run.toString())
                    .contains("compose project " + project() + ": its directory " + LabComposeRedis.DIR + " is gone")
                    .contains("nothing restarted, Redis left as it was");
            assertThat(lab.runId(COMPOSE)).as("Redis left running").isEqualTo(runId);
            assertThat(root(COMPOSE, "ls /var/lib/fleetfix 2>/dev/null || true"))
                    .as("no restart record left")
                    .doesNotContain("pending");
        } finally {
            root(COMPOSE, "mv " + LabComposeRedis.DIR + ".moved " + LabComposeRedis.DIR);
        }
    }

    private static String project() {
        return LabComposeRedis.project(fleet.get(), COMPOSE);
    }

    /** The container that runs the host's Redis: the lab's sibling, or the compose service's, found by its labels. */
    private static String containerName(String host) {
        if (!host.equals(COMPOSE)) {
            return containers.get(host).name();
        }
        return root(
                host,
                "docker ps --filter label=com.docker.compose.project=" + project()
                        + " --filter label=com.docker.compose.service=" + LabComposeRedis.SERVICE
                        + " --format '{{.Names}}'");
    }

    private static CliRun apply(String hosts, String runDir) {
        return CliRun.of(
                "apply",
                ShippedPlaybook.thpOffBrief(dir.resolve("brief")).toString(),
                "-i",
                fleet.inventoryFile().toString(),
                "--limit",
                hosts,
                "--no-color",
                "--run-dir",
                dir.resolve(runDir).toString());
    }

    /** What a refused run must leave as it was: the THP files, the units and their state, the keys. */
    private static String untouched(String host) {
        return fleet.thp(host) + "\n"
                + root(
                        host,
                        "cat /sys/kernel/mm/transparent_hugepage/defrag; ls -la /etc/systemd/system;"
                                + " systemctl list-unit-files --no-legend | sort; ls -la /var/lib/fleetfix 2>&1 || true")
                + "\n" + lab.digests().get(host);
    }

    private static void assertEveryKeyKeptAndNoFleetfixKeyLeft() {
        lab.assertIntact(seeded);
        for (String host : HOSTS) {
            assertThat(lab.cli(host, "--scan | grep -v '^user:' || true"))
                    .as(host + ": keys besides the seeded ones")
                    .isEmpty();
        }
    }

    /** A root command on the host that must succeed; its stdout, stripped. */
    private static String root(String host, String command) {
        ExecResult result = fleet.rootExec(host, command);
        assertThat(result.exitCode())
                .as("%s: %s: %s", host, command, result.stderr())
                .isZero();
        return result.stdout().strip();
    }
}
