package dev.fleetfix.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fleetfix.lab.LabFleetExtension;
import dev.fleetfix.lab.LabHostSpec;
import dev.fleetfix.lab.LabServiceShape;
import dev.fleetfix.lab.LabThp;
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
 * Hosts built the way operators build them, with an inventory that names no service (issue 25): Redis from
 * source with install_server.sh's SysV script ({@code redis_6379}, generated into a unit, status always 0, Redis
 * 7.0 with {@code disable-thp no}), one named instance of Debian's template unit ({@code redis-server@main}), a
 * supervisord program, and a host whose active tuned profile sets THP always (booting at madvise, so tuned's
 * write shows). For each: the playbook's audit step names the service that runs Redis, {@code playbooks/thp-off.yaml} exits 0,
 * Redis really restarted (new run_id), every key kept, no fleetfix key left; after a reboot THP is never and
 * Redis answers with every key.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class OperatorShapesIT {
    private static final int KEYS = 2000;

    /** Host -> the systemd unit that starts its Redis at boot, which persist_thp's unit must come before. */
    private static final Map<String, String> BOOT_UNIT = Map.of(
            "src-1", "redis_6379.service",
            "inst-2", "redis-server@main.service",
            "sup-3", "supervisor.service",
            "tuned-4", "redis-server.service");

    @RegisterExtension
    static final LabFleetExtension fleet = LabFleetExtension.of(
            unnamed("src-1").serviceShape(LabServiceShape.INSTALL_SERVER).build(),
            unnamed("inst-2").serviceShape(LabServiceShape.DEBIAN_INSTANCE).build(),
            unnamed("sup-3").serviceShape(LabServiceShape.SUPERVISORD).build(),
            unnamed("tuned-4").tunedThp(true).thp(LabThp.MADVISE).build());

    private static final List<String> HOSTS = List.of("src-1", "inst-2", "sup-3", "tuned-4");
    private static final Map<String, String> seeded = new LinkedHashMap<>();
    private static final Map<String, String> runIds = new LinkedHashMap<>();
    private static LabData lab;

    @TempDir
    static Path dir;

    private static LabHostSpec.Builder unnamed(String name) {
        return LabHostSpec.builder(name).serviceInInventory(false);
    }

    @BeforeAll
    static void seed() {
        System.out.printf(
                "OperatorShapesIT: fleet up in %.1f s%n", fleet.startedIn().toMillis() / 1e3);
        lab = new LabData(fleet.get(), HOSTS);
        for (String host : HOSTS) {
            lab.seed(host, "user", KEYS);
            runIds.put(host, runId(host));
        }
        seeded.putAll(lab.digests());
        // the shapes are as the operators left them
        assertThat(root(
                        "src-1",
                        "systemctl is-active redis_6379; readlink /proc/$(cat /var/run/redis_6379.pid)/exe;"
                                + " test ! -e /etc/redis/redis.conf && echo no redis.conf"))
                .isEqualTo("active\n/usr/local/bin/redis-server\nno redis.conf");
        assertThat(root("src-1", "systemctl list-unit-files 'redis-server*' --no-legend | wc -l"))
                .isEqualTo("0");
        assertThat(root(
                        "src-1",
                        "systemctl stop redis_6379 && /etc/init.d/redis_6379 status; echo rc=$?;"
                                + " systemctl start redis_6379"))
                .contains("is not running", "rc=0");
        assertThat(root("inst-2", "systemctl is-active redis-server@main; systemctl is-enabled redis-server || true"))
                .isEqualTo("active\ndisabled");
        assertThat(root("sup-3", "supervisorctl status redis; systemctl is-enabled redis-server || true"))
                .contains("RUNNING")
                .endsWith("disabled");
        assertThat(root("tuned-4", "tuned-adm active")).contains("redis-thp");
        assertThat(fleet.thpMode("tuned-4"))
                .as("tuned's profile over the boot mode")
                .hasValue("always");
        assertThat(fleet.inventoryFile()).content().doesNotContain("redis_service", "service:");
        runIds.put("src-1", runId("src-1"));
        seeded.putAll(lab.digests());
    }

    @Test
    @Order(1)
    void theAuditCommandNamesTheServiceThatRunsEachRedis() {
        CliRun run = CliRun.of("audit", "-i", fleet.inventoryFile().toString());
        System.out.println(run);
        assertThat(run.stdout())
                .as(run.toString())
                .contains("run by systemd unit redis_6379.service (SysV script /etc/init.d/redis_6379)")
                .contains("run by systemd unit redis-server@main.service")
                .contains("run by supervisord program redis")
                .contains("tuned");
    }

    @Test
    @Order(2)
    void thpOffRestartsEachRedisKeepingEveryKey() {
        long started = System.nanoTime();
        CliRun run = CliRun.of(
                "apply",
                ShippedPlaybook.thpOffBrief(dir.resolve("brief")).toString(),
                "-i",
                fleet.inventoryFile().toString(),
                "--no-color",
                "--run-dir",
                dir.resolve("run-thp-off").toString());
        System.out.println(run);
        System.out.printf("OperatorShapesIT: thp-off took %.1f s%n", (System.nanoTime() - started) / 1e9);
        assertThat(run.exitCode()).as(run.toString()).isZero();
        // the playbook's audit step names what it found, before anything changes
        assertThat(run.stdout())
                .as(run.toString())
                .contains("run by systemd unit redis_6379.service (SysV script /etc/init.d/redis_6379)")
                .contains("run by systemd unit redis-server@main.service")
                .contains("run by supervisord program redis")
                .contains("run by systemd unit redis-server.service");
        assertThat(root("tuned-4", "tuned-adm active"))
                .as("tuned applies our child of its profile")
                .contains("fleetfix-thp");
        assertThat(root("tuned-4", "cat /etc/tuned/fleetfix-thp/tuned.conf")).contains("include=redis-thp");
        for (String host : HOSTS) {
            assertThat(fleet.thpMode(host)).as(host).hasValue("never");
            assertThat(runId(host)).as(host + ": Redis restarted").isNotEqualTo(runIds.get(host));
            assertThat(root(host, "systemctl show -p Before --value fleetfix-thp.service"))
                    .as(host + ": THP is set before the unit that starts Redis")
                    .contains(BOOT_UNIT.get(host));
        }
        assertEveryKeyKeptAndNoFleetfixKeyLeft();
    }

    @Test
    @Order(3)
    void afterARebootThpIsNeverAndRedisHasEveryKey() {
        for (String host : HOSTS) {
            String tunedRuns = "grep -c 'static tuning from profile' /var/log/tuned/tuned.log || true";
            String before = host.startsWith("tuned") ? root(host, tunedRuns) : "";
            fleet.reboot(host);
            if (host.startsWith("tuned")) {
                // tuned applies its profile after Redis answers: wait for it, it is what would set THP back
                LabData.await(() -> !root(host, tunedRuns).equals(before), 30_000);
                assertThat(root(host, tunedRuns)).as("tuned ran at boot").isNotEqualTo(before);
            }
            assertThat(fleet.thpMode(host)).as(host + " after its reboot").hasValue("never");
        }
        assertEveryKeyKeptAndNoFleetfixKeyLeft();
    }

    private static void assertEveryKeyKeptAndNoFleetfixKeyLeft() {
        lab.assertIntact(seeded);
        for (String host : HOSTS) {
            assertThat(lab.cli(host, "--scan | grep -v '^user:' || true"))
                    .as(host + ": keys besides the seeded ones")
                    .isEmpty();
        }
    }

    private static String runId(String host) {
        return lab.runId(host);
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
