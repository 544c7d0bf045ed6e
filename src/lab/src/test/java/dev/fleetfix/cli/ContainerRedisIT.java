package dev.fleetfix.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fleetfix.lab.LabFleetExtension;
import dev.fleetfix.lab.LabHostSpec;
import dev.fleetfix.lab.LabRedisContainer;
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
 * host as on a Docker host. With its data on a volume, {@code playbooks/thp-off.yaml} exits 0, Redis restarted through
 * {@code docker restart} (new run_id), every key kept, no fleetfix key left, THP never after a reboot; without a volume
 * the host is refused before any change, its THP files, units and keys as they were.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ContainerRedisIT {
    private static final int KEYS = 2000;

    @RegisterExtension
    static final LabFleetExtension fleet = LabFleetExtension.of(host("vol-1"), host("novol-2"));

    private static final List<String> HOSTS = List.of("vol-1", "novol-2");
    private static final Map<String, String> seeded = new LinkedHashMap<>();
    private static final Map<String, String> runIds = new LinkedHashMap<>();
    private static final Map<String, LabRedisContainer> containers = new LinkedHashMap<>();
    private static LabData lab;

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
        long started = System.nanoTime();
        containers.put("vol-1", LabRedisContainer.start(fleet.get(), "vol-1", true));
        containers.put("novol-2", LabRedisContainer.start(fleet.get(), "novol-2", false));
        System.out.printf("ContainerRedisIT: containers up in %.1f s%n", (System.nanoTime() - started) / 1e9);
        lab = new LabData(fleet.get(), HOSTS);
        for (String host : HOSTS) {
            lab.seed(host, "user", KEYS);
            runIds.put(host, lab.runId(host));
            // as on a Docker host: the host's own Redis unit is off, the docker CLI sees the container
            assertThat(root(host, "systemctl is-enabled redis-server || true")).isEqualTo("disabled");
            assertThat(root(host, "docker ps --format '{{.Names}}'"))
                    .contains(containers.get(host).name());
        }
        seeded.putAll(lab.digests());
        assertThat(fleet.get().inventoryFile()).content().doesNotContain("redis_service", "service:");
    }

    @AfterAll
    static void removeContainers() {
        containers.values().forEach(LabRedisContainer::close);
    }

    @Test
    @Order(1)
    void theAuditNamesTheContainerItsRuntimeAndItsVolume() {
        CliRun run = CliRun.of("audit", "-i", fleet.inventoryFile().toString());
        System.out.println(run);
        assertThat(run.stdout())
                .as(run.toString())
                .contains("run by docker container " + containers.get("vol-1").name())
                .contains("run by docker container " + containers.get("novol-2").name());
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
    void thpOffRestartsTheContainerKeepingEveryKey() {
        String host = "vol-1";
        long started = System.nanoTime();
        CliRun run = apply(host, "run-vol");
        System.out.println(run);
        System.out.printf("ContainerRedisIT: thp-off took %.1f s%n", (System.nanoTime() - started) / 1e9);

        assertThat(run.exitCode()).as(run.toString()).isZero();
        assertThat(run.stdout())
                .as(run.toString())
                .contains("run by docker container " + containers.get(host).name());
        assertThat(fleet.thpMode(host)).hasValue("never");
        assertThat(lab.runId(host)).as("Redis restarted").isNotEqualTo(runIds.get(host));
        assertEveryKeyKeptAndNoFleetfixKeyLeft();
    }

    @Test
    @Order(4)
    void afterARebootThpIsNeverAndTheContainersRedisHasEveryKey() {
        String host = "vol-1";
        fleet.reboot(host);
        containers.get(host).awaitRedis();

        assertThat(fleet.thpMode(host)).as(host + " after its reboot").hasValue("never");
        assertEveryKeyKeptAndNoFleetfixKeyLeft();
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
