package dev.fleetfix.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fleetfix.lab.LabFleetExtension;
import dev.fleetfix.lab.LabHostSpec;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Redis as it is found in the wild, on lab hosts: CONFIG renamed away, with and without
 * persistence, and a command that outlives its timeout. Whatever fleetfix cannot read, no key may
 * be lost and no command sent twice.
 *
 * <ul>
 *   <li>lab-1: no persistence ({@code save ""}, {@code appendonly no}), CONFIG disabled by a
 *       {@code rename-command CONFIG ""} in a file its redis.conf includes;
 *   <li>lab-2: RDB save points, CONFIG disabled in redis.conf itself;
 *   <li>lab-3: an ordinary host, for the timeout;
 *   <li>lab-4: ACL only: {@code user default off}, and a user {@code ops} with a password and no
 *       CONFIG rights.
 * </ul>
 */
class HardenedRedisIT {
    private static final String INCLUDED = "/etc/redis/fleetfix-it.conf";
    private static final int KEYS = 3000;
    private static final String OPS_PASSWORD = "ops-Secret-42";

    @TempDir
    static Path dir;

    @RegisterExtension
    static final LabFleetExtension fleet = LabFleetExtension.of(
            LabHostSpec.named("lab-1").withSave("").withAppendonly(false),
            LabHostSpec.named("lab-2").withSave("900 1").withAppendonly(false),
            LabHostSpec.named("lab-3"),
            LabHostSpec.named("lab-4"));

    private static LabData lab;

    @BeforeAll
    static void prepareHosts() {
        lab = new LabData(fleet.get(), List.of("lab-1", "lab-2"));
        // Redis reads rename-command only at start: the hosts' Redis is restarted with it, then seeded.
        fleet.rootExec(
                "lab-1",
                "printf 'rename-command CONFIG \"\"\\n' > " + INCLUDED + " && chown redis:redis " + INCLUDED
                        + " && echo 'include " + INCLUDED + "' >> /etc/redis/redis.conf");
        fleet.rootExec("lab-2", "printf 'rename-command CONFIG \"\"\\n' >> /etc/redis/redis.conf");
        fleet.rootExec(
                "lab-4",
                "printf 'user default off\\nuser ops on >" + OPS_PASSWORD
                        + " ~* &* +@all -config\\n' >> /etc/redis/redis.conf && systemctl restart redis-server");
        LabData.await(() -> opsCli("PING").equals("PONG"), 30_000);
        assertThat(opsCli("PING")).isEqualTo("PONG");
        for (String host : List.of("lab-1", "lab-2")) {
            fleet.rootExec(host, "systemctl restart redis-server");
            LabData.await(() -> lab.cli(host, "PING").equals("PONG"), 30_000);
            assertThat(lab.cli(host, "CONFIG GET save")).as(host).contains("unknown command");
            lab.seed(host, "user", KEYS);
            assertThat(lab.cli(host, "DBSIZE")).isEqualTo(Integer.toString(KEYS));
        }
    }

    /** redis-cli on lab-4 as user ops. */
    private static String opsCli(String command) {
        var h = fleet.host("lab-4");
        return fleet.rootExec(
                        "lab-4",
                        "redis-cli --no-auth-warning --user ops --pass " + OPS_PASSWORD + " -h " + h.address() + " -p "
                                + h.redisPort() + " " + command)
                .stdout()
                .strip();
    }

    /** The lab's inventory with {@code lines} added to lab-4's host entry. */
    private static Path inventoryWith(String... lines) throws java.io.IOException {
        String yaml = java.nio.file.Files.readString(fleet.inventoryFile());
        StringBuilder extra = new StringBuilder();
        for (String line : lines) {
            extra.append("          ").append(line).append('\n');
        }
        assertThat(yaml).contains("        lab-4:\n");
        Path file = dir.resolve("inventory-" + System.nanoTime() + ".yml");
        java.nio.file.Files.writeString(file, yaml.replace("        lab-4:\n", "        lab-4:\n" + extra));
        return file;
    }

    private static CliRun audit(Path inventory) {
        CliRun run = CliRun.of("audit", "-i", inventory.toString(), "--limit", "lab-4");
        System.out.println(run);
        return run;
    }

    @Test
    void anAclUserWithItsPasswordIsAuditedAndToldWhatItMayNotRun() throws Exception {
        CliRun run = audit(inventoryWith("redis_user: ops", "redis_password: " + OPS_PASSWORD));

        assertThat(run.stdout())
                .contains("7.0")
                .doesNotContain("auth failed")
                .doesNotContain("down")
                .contains("Redis refuses commands fleetfix needs: config|get (NOPERM), config|rewrite (NOPERM),"
                        + " config|set (NOPERM)");
        assertThat(run.stdout() + run.stderr()).doesNotContain(OPS_PASSWORD);
    }

    @Test
    void aWrongPasswordIsAuthFailedNotDown() throws Exception {
        CliRun run = audit(inventoryWith("redis_user: ops", "redis_password: not-the-password"));

        assertThat(run.exitCode()).as(run.toString()).isEqualTo(1);
        assertThat(run.stdout())
                .contains("auth failed")
                .contains("runs but refused fleetfix's credentials")
                .contains("WRONGPASS")
                .contains("(user ops)")
                .doesNotContain("Redis is not answering");
    }

    @Test
    void aMisspelledRedisUserIsNamedAndTheDefaultUserIsRefused() throws Exception {
        CliRun run = audit(inventoryWith("redis_usr: ops", "redis_password: " + OPS_PASSWORD));

        assertThat(run.stderr())
                .contains("[WARNING]: ", "unknown Redis key redis_usr is ignored, did you mean redis_user?");
        assertThat(run.stdout()).contains("auth failed").contains("(user default)");
    }

    private static String runId(String host) {
        return lab.cli(host, "INFO server")
                .lines()
                .filter(l -> l.startsWith("run_id:"))
                .findFirst()
                .orElseThrow();
    }

    private static final String RESTART =
            """
            - hosts: all
              steps:
                - restart_redis: {always: true, timeout: 60s}
            """;

    @Test
    void configRenamedAwayAndNoPersistenceRefusesTheRestartAndKeepsEveryKey() {
        Map<String, String> before = lab.digests();
        String runId = runId("lab-1");

        CliRun run = lab.apply(dir, RESTART, "--limit", "lab-1");

        assertThat(run.exitCode()).as(run.toString()).isEqualTo(1);
        assertThat(run.stdout())
                .contains("refused: primary, no replica, and no persistence (save \"\", appendonly no")
                .contains("config file /etc/redis/redis.conf (CONFIG is disabled there: save \"\")")
                .contains("Redis left running")
                .doesNotContain("nothing in memory");
        assertThat(runId("lab-1")).as("not restarted").isEqualTo(runId);
        assertThat(lab.digests()).isEqualTo(before);
    }

    @Test
    void configRenamedAwayAndAnUnreadableConfigRefusesNamingTheFact() {
        Map<String, String> before = lab.digests();
        String runId = runId("lab-1");
        fleet.rootExec("lab-1", "mv " + INCLUDED + " " + INCLUDED + ".away");
        try {
            CliRun run = lab.apply(dir, RESTART, "--limit", "lab-1");

            assertThat(run.exitCode()).as(run.toString()).isEqualTo(1);
            assertThat(run.stdout())
                    .contains("CONFIG GET save refused (unknown command: renamed away) and cannot read " + INCLUDED)
                    .contains("whether a restart would lose the data set cannot be told")
                    .contains("Redis left running");
            assertThat(runId("lab-1")).as("not restarted").isEqualTo(runId);
            assertThat(lab.digests()).isEqualTo(before);
        } finally {
            fleet.rootExec("lab-1", "mv " + INCLUDED + ".away " + INCLUDED);
        }
    }

    @Test
    void configRenamedAwayWithSavePointsIsSavedThenRestartedWithoutLosingAKey() {
        Map<String, String> before = lab.digests();
        String runId = runId("lab-2");

        CliRun run = lab.apply(dir, RESTART, "--limit", "lab-2");

        assertThat(run.exitCode()).as(run.toString()).isEqualTo(0);
        assertThat(run.stdout())
                .contains("primary, no replica: BGSAVE first (save points")
                .contains("config file /etc/redis/redis.conf (CONFIG is disabled there: save 900 1)")
                .contains("data check:");
        assertThat(runId("lab-2")).as("restarted").isNotEqualTo(runId);
        LabData.await(() -> lab.digests().equals(before), 10_000);
        assertThat(lab.digests()).isEqualTo(before);
        assertThat(before.get("lab-2")).startsWith(KEYS + " ");
    }

    @Test
    void aCommandThatTimesOutRunsOnceAndFailsItsHostWhichIsNotUnreachable() {
        String marker = "/var/tmp/fleetfix-timeout-runs";
        fleet.rootExec("lab-3", "rm -f " + marker);
        String playbook =
                """
                - hosts: all
                  steps:
                    - command: {cmd: "echo run >> %s; sleep 25 & sleep 10", timeout: 3s}
                """
                        .formatted(marker);
        try {
            CliRun run = lab.apply(dir, playbook, "--limit", "lab-3");
            // Long enough for the retries the old policy made (backoff 1 s, then 2 s, 3 s each).
            LabData.sleep(6000);

            assertThat(run.exitCode()).as(run.toString()).isEqualTo(1);
            assertThat(run.stdout())
                    .contains("command timed out after 3s")
                    .contains("not sent again")
                    .contains("failed=1")
                    .contains("unreachable=0")
                    .doesNotContain("UNREACHABLE");
            assertThat(fleet.rootExec("lab-3", "wc -l < " + marker).stdout().strip())
                    .as("executions of the command on the host")
                    .isEqualTo("1");
            // sshd kills the session's process group when the command times out (a non-root login); a
            // background process must at most be left once, not once per try
            assertThat(Integer.parseInt(fleet.rootExec("lab-3", "pgrep -c -f 'sleep 25'; true")
                            .stdout()
                            .strip()))
                    .as("background processes it left")
                    .isLessThanOrEqualTo(1);
        } finally {
            fleet.rootExec("lab-3", "pkill -f 'sleep 25'; rm -f " + marker);
        }
    }
}
