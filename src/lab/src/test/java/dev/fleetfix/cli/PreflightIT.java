package dev.fleetfix.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fleetfix.lab.LabCli;
import dev.fleetfix.lab.LabFleetExtension;
import dev.fleetfix.lab.LabHostSpec;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 25, item 2, on lab hosts: thp-off.yaml, where a later step would fail, refuses the host before its first
 * change. One run over three hosts, each with what would have failed its restart after THP was changed:
 *
 * <ul>
 *   <li>lab-1: a wrong Redis password ({@code requirepass} set, the inventory names another);
 *   <li>lab-2: a restart route that does not exist ({@code redis_service: no-such});
 *   <li>lab-3: a forbidden command ({@code rename-command BGSAVE ""}: the save before the restart).
 * </ul>
 *
 * Each is left exactly as it was, and its line says why and what to fix.
 */
class PreflightIT {
    private static final String PASSWORD = "preflight-Right-7";
    private static final List<String> HOSTS = List.of("lab-1", "lab-2", "lab-3");

    @TempDir
    static Path dir;

    @RegisterExtension
    static final LabFleetExtension fleet =
            LabFleetExtension.of(LabHostSpec.named("lab-1"), LabHostSpec.named("lab-2"), LabHostSpec.named("lab-3"));

    @BeforeAll
    static void prepareHosts() {
        // Redis reads requirepass and rename-command at start
        fleet.rootExec(
                "lab-1",
                "echo 'requirepass " + PASSWORD + "' >> /etc/redis/redis.conf && systemctl restart redis-server");
        fleet.rootExec(
                "lab-3",
                "echo 'rename-command BGSAVE \"\"' >> /etc/redis/redis.conf && systemctl restart redis-server");
        for (String host : HOSTS) {
            LabData.await(() -> redis(host, "PING").equals("PONG"), 30_000);
            redis(host, "EVAL \"for i=1,500 do redis.call('SET','user:'..i,'value-'..i) end\" 0");
            assertThat(redis(host, "DBSIZE")).as(host).isEqualTo("500");
        }
    }

    /** redis-cli on the host, with lab-1's password. */
    private static String redis(String host, String command) {
        return LabCli.run(fleet.get(), host, fleet.host(host).redisPort(), Optional.of(PASSWORD), command)
                .stdout()
                .strip();
    }

    /** What fleetfix could have changed on a host: THP, units, rc.local, Redis's config, its process, its keys. */
    private static Map<String, String> state() {
        Map<String, String> all = new TreeMap<>();
        for (String host : HOSTS) {
            all.put(
                    host + " files",
                    fleet.rootExec(
                                    host,
                                    "cat /sys/kernel/mm/transparent_hugepage/enabled"
                                            + " /sys/kernel/mm/transparent_hugepage/defrag;"
                                            + " find /etc/systemd/system /etc/rc.local /etc/redis /var/lib/fleetfix"
                                            + " /run/lock -xdev 2>/dev/null | sort | while read -r f; do"
                                            + " if [ -f \"$f\" ]; then md5sum \"$f\"; else echo \"$f\"; fi; done")
                            .stdout());
            all.put(
                    host + " redis",
                    redis(host, "DBSIZE") + " " + redis(host, "DEBUG DIGEST") + " "
                            + redis(host, "INFO server")
                                    .lines()
                                    .filter(l -> l.startsWith("run_id:"))
                                    .findFirst()
                                    .orElse("?"));
        }
        return all;
    }

    @Test
    void eachHostAStepWouldFailOnIsRefusedBeforeAnyChangeAndLeftAsItWas() throws Exception {
        String inventory = Files.readString(fleet.inventoryFile());
        assertThat(inventory).contains("        lab-1:\n", "        lab-2:\n");
        Path file = dir.resolve("inventory.yml");
        Files.writeString(
                file,
                inventory
                        .replace("        lab-1:\n", "        lab-1:\n          redis_password: not-the-password\n")
                        .replace("        lab-2:\n", "        lab-2:\n          redis_service: no-such\n"));
        // every host in one batch, and one failure halts nothing: each host has its own line
        String playbook = ShippedPlaybook.briefBenchmarks(ShippedPlaybook.thpOffText())
                .replace("serial: [1, \"50%\"]", "serial: 3")
                .replace("max_fail_percentage: 0", "max_fail_percentage: 100");
        assertThat(playbook).contains("serial: 3", "max_fail_percentage: 100");
        Path play = dir.resolve("thp-off.yaml");
        Files.writeString(play, playbook);
        Map<String, String> before = state();

        CliRun run = CliRun.of(
                "apply",
                play.toString(),
                "-i",
                file.toString(),
                "--no-color",
                "--run-dir",
                dir.resolve("run").toString());
        System.out.println(run);

        assertThat(run.exitCode()).as(run.toString()).isEqualTo(1);
        assertThat(state()).as("nothing changed on any host").isEqualTo(before);
        assertThat(hostLine(run, "lab-1"))
                .contains("FAILED: refused before any change: redis auth failed (")
                .contains("): check redis_password / redis_user")
                .doesNotContain("allow_data_loss");
        assertThat(hostLine(run, "lab-2"))
                .contains("FAILED: refused before any change: restart_redis: service no-such cannot be restarted"
                        + " on this host");
        assertThat(hostLine(run, "lab-3"))
                .contains("FAILED: refused before any change: restart_redis: ")
                .contains("refused: Redis refuses commands this restart needs: bgsave (renamed away)");
        assertThat(run.stdout() + run.stderr()).doesNotContain(PASSWORD);
    }

    /** The one line the run printed for the host's end. */
    private static String hostLine(CliRun run, String host) {
        List<String> lines = run.stdout()
                .lines()
                .filter(l -> l.contains("host " + host + " FAILED") || l.contains("host " + host + " done"))
                .toList();
        assertThat(lines).as(host + " ended in one line").hasSize(1);
        return lines.get(0);
    }
}
