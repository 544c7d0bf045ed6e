package dev.fleetfix.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fleetfix.lab.LabFleetExtension;
import dev.fleetfix.lab.LabHostSpec;
import dev.fleetfix.lab.LabPodmanRedis;
import dev.fleetfix.lab.LabPodmanRedis.Shape;
import dev.fleetfix.transport.ExecResult;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Redis in a Podman container on a host (issue 39), with an inventory that names no service: Debian's podman in the lab
 * host runs Redis ({@link LabPodmanRedis}), in the two shapes operators use: {@code podman run --restart always} with a
 * volume (restarted with {@code podman restart}), and a unit of {@code podman generate systemd --new} (restarted with
 * {@code systemctl restart}). For each, {@code playbooks/thp-off.yaml} exits 0 through that route, Redis restarted
 * (new run_id), every key kept, no fleetfix key left, THP never after a reboot of the host; a container without a
 * volume is refused before any change, its THP files, units, container and keys as they were.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class PodmanRedisIT {
    private static final int KEYS = 2000;
    private static final Map<String, Shape> SHAPES =
            Map.of("run-1", Shape.RUN, "unit-2", Shape.UNIT, "novol-3", Shape.NO_VOLUME);
    private static final List<String> HOSTS = List.of("run-1", "unit-2", "novol-3");

    @RegisterExtension
    static final LabFleetExtension fleet = LabFleetExtension.of(host("run-1"), host("unit-2"), host("novol-3"));

    private static final Map<String, String> seeded = new LinkedHashMap<>();
    private static final Map<String, String> runIds = new LinkedHashMap<>();
    private static LabData lab;

    @TempDir
    static Path dir;

    private static LabHostSpec host(String name) {
        return LabHostSpec.builder(name).serviceInInventory(false).build();
    }

    @BeforeAll
    static void redisInPodman() {
        long started = System.nanoTime();
        for (String host : HOSTS) {
            LabPodmanRedis.start(fleet.get(), host, SHAPES.get(host));
        }
        System.out.printf("PodmanRedisIT: containers up in %.1f s%n", (System.nanoTime() - started) / 1e9);
        lab = new LabData(fleet.get(), HOSTS);
        for (String host : HOSTS) {
            lab.seed(host, "user", KEYS);
            runIds.put(host, lab.runId(host));
            // as on a Podman host: the host's own Redis unit is off, podman runs the container
            assertThat(root(host, "systemctl is-enabled redis-server || true")).isEqualTo("disabled");
            assertThat(root(host, "podman ps --format '{{.Names}}'")).isEqualTo(LabPodmanRedis.NAME);
        }
        assertThat(root("unit-2", "systemctl is-active " + Shape.UNIT.unit())).isEqualTo("active");
        seeded.putAll(lab.digests());
        assertThat(fleet.get().inventoryFile()).content().doesNotContain("redis_service", "service:");
    }

    @Test
    @Order(1)
    void theAuditNamesThePodmanContainerAndWhatRunsIt() {
        CliRun run = CliRun.of("audit", "-i", fleet.inventoryFile().toString());
        System.out.println(run);
        assertThat(run.stdout())
                .as(run.toString())
                .contains("run by podman container " + LabPodmanRedis.NAME)
                .contains("systemd unit " + Shape.UNIT.unit());
    }

    @Test
    @Order(2)
    void aContainerWithoutAVolumeIsRefusedWithTheHostUntouched() {
        String host = "novol-3";
        String before = untouched(host);
        CliRun run = apply(host, "run-novol");
        System.out.println(run);

        assertThat(run.exitCode()).as(run.toString()).isNotZero();
        assertThat(run.stdout())
                .as(run.toString())
                .contains("refused before any change")
                .contains("data would be lost with the container: /data is not a volume");
        assertThat(untouched(host)).as("THP files, units, container and keys").isEqualTo(before);
        assertThat(lab.runId(host)).isEqualTo(runIds.get(host));
    }

    @Test
    @Order(3)
    void thpOffRestartsTheRunContainerThroughPodmanRestart() {
        CliRun run = thpOff("run-1");
        assertThat(run.stdout())
                .as(run.toString())
                .contains("restart_redis: the restart of podman container " + LabPodmanRedis.NAME + " to return");
    }

    @Test
    @Order(4)
    void thpOffRestartsTheUnitsContainerThroughSystemctl() {
        CliRun run = thpOff("unit-2");
        assertThat(run.stdout())
                .as(run.toString())
                .contains("restart_redis: the restart of systemd unit " + Shape.UNIT.unit() + " (podman container "
                        + LabPodmanRedis.NAME + ") to return");
    }

    @Test
    @Order(5)
    void afterARebootThpIsNeverAndEachContainersRedisHasEveryKey() {
        for (String host : List.of("run-1", "unit-2")) {
            fleet.reboot(host);
            LabPodmanRedis.awaitRedis(fleet.get().host(host));
            assertThat(fleet.thpMode(host)).as(host + " after its reboot").hasValue("never");
        }
        assertEveryKeyKeptAndNoFleetfixKeyLeft();
    }

    private static CliRun thpOff(String host) {
        long started = System.nanoTime();
        CliRun run = apply(host, "run-" + host);
        System.out.println(run);
        System.out.printf("PodmanRedisIT: thp-off on %s took %.1f s%n", host, (System.nanoTime() - started) / 1e9);

        assertThat(run.exitCode()).as(run.toString()).isZero();
        assertThat(fleet.thpMode(host)).hasValue("never");
        assertThat(lab.runId(host)).as("Redis restarted").isNotEqualTo(runIds.get(host));
        assertEveryKeyKeptAndNoFleetfixKeyLeft();
        // podman asked as the login user would be rootless Podman, making its storage in that user's home
        assertThat(root(host, "ls -A ~" + fleet.get().user() + "/.local/share 2>/dev/null || true"))
                .as("rootless Podman's storage left by the run")
                .doesNotContain("containers");
        return run;
    }

    private static CliRun apply(String host, String runDir) {
        return CliRun.of(
                "apply",
                ShippedPlaybook.thpOffBrief(dir.resolve("brief")).toString(),
                "-i",
                fleet.inventoryFile().toString(),
                "--limit",
                host,
                "--no-color",
                "--run-dir",
                dir.resolve(runDir).toString());
    }

    /** What a refused run must leave as it was: the THP files, the units and their state, the container, the keys. */
    private static String untouched(String host) {
        return fleet.thp(host) + "\n"
                + root(
                        host,
                        "cat /sys/kernel/mm/transparent_hugepage/defrag; ls -la /etc/systemd/system;"
                                + " systemctl list-unit-files --no-legend | sort; ls -la /var/lib/fleetfix 2>&1 || true;"
                                + " podman inspect --format '{{.Id}} {{.State.StartedAt}}' " + LabPodmanRedis.NAME)
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
