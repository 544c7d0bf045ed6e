package dev.fleetfix.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fleetfix.lab.LabFleetExtension;
import dev.fleetfix.lab.LabHost;
import dev.fleetfix.lab.LabPreset;
import dev.fleetfix.transport.ExecResult;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The mixed fleet of every era and shape (lab preset eras: Redis 2.8.19, 6.2, 7.0, 8.0, Valkey 8.1,
 * a host with three instances, a host without systemd): audit, then playbooks/thp-off.yaml, then a
 * reboot of every host. Every Redis instance must come back at its own version with every key
 * (same DBSIZE and DEBUG DIGEST), no benchmark key left, and THP never after the reboot. On the host
 * without systemd, grub's kernel command line and rc.local are each proven alone by a reboot.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ErasFleetIT {
    private static final int KEYS = 2000;

    @RegisterExtension
    static final LabFleetExtension fleet = LabFleetExtension.of(LabPreset.ERAS.specs(7));
    /** "host:port" -> "version dbsize digest" before anything ran. */
    private static final Map<String, String> seeded = new LinkedHashMap<>();

    @TempDir
    static Path dir;

    @BeforeAll
    static void prepareHosts() {
        System.out.printf(
                "ErasFleetIT: eras fleet up in %.1f s%n", fleet.startedIn().toMillis() / 1e3);
        for (LabHost host : fleet.hosts()) {
            for (int port : host.redisPorts()) {
                cli(
                        host.name(),
                        port,
                        "EVAL \"for i=1," + KEYS + " do redis.call('SET','eras:" + port + ":'..i,'v'..i) end\" 0");
                seeded.put(host.name() + ":" + port, state(host.name(), port));
            }
        }
        System.out.println("ErasFleetIT: seeded " + seeded);
    }

    /** The host's own client (redis-cli, or valkey-cli where that is all there is) against one instance. */
    static String cli(String host, int port, String command) {
        String address = fleet.host(host).address();
        return fleet.rootExec(
                        host,
                        "c=$(command -v redis-cli || command -v valkey-cli); $c -h " + address + " -p " + port + " "
                                + command)
                .stdout()
                .strip();
    }

    /** "version keys digest" of one instance. */
    static String state(String host, int port) {
        String info = cli(host, port, "INFO server");
        String version = info.lines()
                .filter(l -> l.startsWith("valkey_version:") || l.startsWith("redis_version:"))
                .reduce((a, b) -> b.startsWith("valkey_version:") ? b : a)
                .orElse("?")
                .strip();
        return version + " " + cli(host, port, "DBSIZE") + " " + cli(host, port, "DEBUG DIGEST");
    }

    private static Map<String, String> states() {
        Map<String, String> now = new LinkedHashMap<>();
        for (LabHost host : fleet.hosts()) {
            for (int port : host.redisPorts()) {
                now.put(host.name() + ":" + port, state(host.name(), port));
            }
        }
        return now;
    }

    private static void assertEveryKeyKeptAndNoBenchmarkKeyLeft() {
        LabData.await(() -> states().equals(seeded), 20_000);
        for (LabHost host : fleet.hosts()) {
            for (int port : host.redisPorts()) {
                // any key but the seeded ones, by name: a benchmark key, a canary, a failover probe
                assertThat(cli(host.name(), port, "--scan | grep -v '^eras:' || true"))
                        .as(host.name() + ":" + port + " keys besides the seeded ones")
                        .isEmpty();
            }
        }
        assertThat(states()).isEqualTo(seeded);
    }

    @Test
    @Order(1)
    void auditReadsEveryInstanceAtItsOwnVersionAndFlavour() {
        CliRun run = CliRun.of("audit", "-i", fleet.inventoryFile().toString());
        System.out.println(run);
        assertThat(run.exitCode()).as(run.toString()).isEqualTo(1); // THP always: at risk
        assertThat(run.stdout())
                .contains("lab-1", "2.8.19", "valkey 8.1.", "8.0.", "6.2.", "lab-6@6379", "lab-6@6380", "lab-6@6381")
                .contains("lab-7");
        CliRun json = CliRun.of("audit", "-i", fleet.inventoryFile().toString(), "--json");
        assertThat(json.stdout()).contains("\"flavour\" : \"valkey\"", "\"redis_compat_version\" : \"7.2.4\"");
    }

    @Test
    @Order(2)
    void thpOffRunsOnEveryShapeAndKeepsEveryKey() {
        List<String> args = List.of(
                "apply",
                ShippedPlaybook.thpOffBrief(dir.resolve("brief")).toString(),
                "-i",
                fleet.inventoryFile().toString(),
                "--no-color",
                "--run-dir",
                dir.resolve("run-thp-off").toString());
        long started = System.nanoTime();
        CliRun run = CliRun.of(args.toArray(String[]::new));
        System.out.println(run);
        System.out.printf("ErasFleetIT: thp-off on the eras fleet took %.1f s%n", (System.nanoTime() - started) / 1e9);
        assertThat(run.exitCode()).as(run.toString()).isZero();
        for (LabHost host : fleet.hosts()) {
            assertThat(fleet.thpMode(host.name())).as(host.name()).hasValue("never");
        }
        // THP is the machine's: the instances that found it never are restarted too
        assertThat(run.stdout())
                .contains("changed: [lab-6@6380] restart_redis", "changed: [lab-6@6381] restart_redis")
                .contains("[lab-7] restart_redis")
                .containsPattern(LabData.restartSays("lab-1", "primary, no replica: BGSAVE first"));
        assertEveryKeyKeptAndNoBenchmarkKeyLeft();
    }

    @Test
    @Order(3)
    void thpStaysNeverAfterEveryHostReboots() {
        for (LabHost host : fleet.hosts()) {
            fleet.reboot(host.name());
            assertThat(fleet.thpMode(host.name()))
                    .as(host.name() + " after its reboot")
                    .hasValue("never");
        }
        assertEveryKeyKeptAndNoBenchmarkKeyLeft();
        // without systemd, auto puts THP on the kernel command line (set before /etc/init.d/redis-server runs)
        // and in rc.local (defrag, which the command line cannot set; rc.local runs last)
        assertThat(root("lab-7", "grep -c fleetfix-thp /etc/rc.local")).isEqualTo("2");
        assertThat(root("lab-7", "cat /proc/cmdline")).contains("transparent_hugepage=never");
    }

    @Test
    @Order(4)
    void onTheHostWithoutSystemdGrubsCommandLineAloneKeepsThpNeverAcrossAReboot() {
        withoutBootSettings("lab-7");
        CliRun run = persistThp("lab-7", "grub");
        assertThat(run.exitCode()).as(run.toString()).isZero();
        assertThat(root("lab-7", "grep ^GRUB_CMDLINE_LINUX= /etc/default/grub")).contains("transparent_hugepage=never");
        assertThat(root("lab-7", "grep -c fleetfix-thp /etc/rc.local || true")).isIn("", "0");

        fleet.reboot("lab-7");

        assertThat(fleet.thpMode("lab-7")).as("after the reboot").hasValue("never");
        assertThat(state("lab-7", 6379)).isEqualTo(seeded.get("lab-7:6379"));
    }

    @Test
    @Order(5)
    void onTheHostWithoutSystemdRcLocalAloneKeepsThpNeverAcrossAReboot() {
        withoutBootSettings("lab-7");
        CliRun run = persistThp("lab-7", "rc.local");
        assertThat(run.exitCode()).as(run.toString()).isZero();
        assertThat(run.stdout()).contains("rc.local runs at the end of boot, after Redis has started");
        assertThat(root("lab-7", "grep -c fleetfix-thp /etc/rc.local")).isEqualTo("2");
        assertThat(root("lab-7", "grep ^GRUB_CMDLINE_LINUX= /etc/default/grub")).doesNotContain("transparent_hugepage");

        fleet.reboot("lab-7");

        assertThat(root("lab-7", "cat /proc/cmdline")).doesNotContain("transparent_hugepage");
        // rc.local runs after the init scripts of sshd and Redis, which the reboot waits for
        LabData.await(() -> fleet.thpMode("lab-7").equals(Optional.of("never")), 10_000);
        assertThat(fleet.thpMode("lab-7")).as("after the reboot, from rc.local").hasValue("never");
        assertThat(root("lab-7", "cat /sys/kernel/mm/transparent_hugepage/defrag"))
                .isEqualTo("never");
        assertThat(state("lab-7", 6379)).isEqualTo(seeded.get("lab-7:6379"));
    }

    /**
     * Takes fleetfix's boot-time THP settings off the host (rc.local's lines, grub's {@code transparent_hugepage=})
     * and reboots it: THP is at its boot mode, always, so that one method's reboot can prove that method alone.
     */
    private static void withoutBootSettings(String host) {
        root(
                host,
                "if [ -f /etc/rc.local ]; then sed -i '/fleetfix-thp/d' /etc/rc.local; fi;"
                        + " sed -i -E '/^GRUB_CMDLINE_LINUX=/s/ ?transparent_hugepage=[a-z]+//' /etc/default/grub");
        fleet.reboot(host);
        assertThat(fleet.thpMode(host))
                .as(host + " without fleetfix's boot settings")
                .hasValue("always");
    }

    /** {@code persist_thp} with one method on one host, through {@code fleetfix apply}. */
    private static CliRun persistThp(String host, String method) {
        CliRun run = CliRun.of(
                "apply",
                writePlaybook("- hosts: all\n  steps:\n    - persist_thp: {method: " + method + "}\n"),
                "-i",
                fleet.inventoryFile().toString(),
                "--limit",
                host,
                "--no-color",
                "--run-dir",
                dir.resolve("run-" + method + "-" + System.nanoTime()).toString());
        System.out.println(run);
        return run;
    }

    /** A root command on the host that must succeed; its stdout, stripped. */
    private static String root(String host, String command) {
        ExecResult result = fleet.rootExec(host, command);
        assertThat(result.exitCode())
                .as("%s: %s: %s", host, command, result.stderr())
                .isZero();
        return result.stdout().strip();
    }

    private static String writePlaybook(String yaml) {
        Path file = dir.resolve("playbook-" + System.nanoTime() + ".yaml");
        try {
            java.nio.file.Files.writeString(file, yaml);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        return file.toString();
    }
}
