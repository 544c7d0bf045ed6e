package dev.fleetfix.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fleetfix.lab.LabFleetExtension;
import dev.fleetfix.lab.LabHostSpec;
import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The shipped playbooks/thp-off.yaml (its benchmarks brief: {@link ShippedPlaybook}) killed with SIGKILL at every step boundary of one host, as a chain: the first
 * run is killed the moment the console reports the end of the host's step 1, its {@code --resume} the moment it
 * reports the end of step 2, and so on through the last step; a last {@code --resume} runs to the end. One chain on
 * lab-1 (RDB save points, no replica), one on lab-2 (primary without persistence, failed over to its replica lab-3
 * and failed back), on one lab that is not reset in between. At every kill no user key is lost, and once the restart
 * step has ended the host's Redis has run under THP never and is never restarted again; after the last resume the
 * roles are what they were, every key is kept, and no fleetfix key, lock or record is left.
 *
 * <p>A kill lands a few milliseconds after the line, so the next step may have begun: what is checked at a kill holds
 * wherever the next step stands (the failover that follows persist_thp on lab-2 is why the roles are not checked
 * there).
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class StepBoundaryCrashIT {
    private static final Path PLAYBOOK = ShippedPlaybook.THP_OFF;
    private static final List<String> STEPS = List.of(
            "audit",
            "benchmark before",
            "thp",
            "persist_thp",
            "restart_redis",
            "wait_healthy",
            "assert",
            "benchmark after");
    private static final String RECORD = "/var/lib/fleetfix/restart-pending";
    private static final String LOCK = "/run/lock/fleetfix.lock";
    private static final long PROCESS_MINUTES = 4;
    private static final Map<String, Long> USER_KEYS = Map.of("lab-1", 20000L, "lab-2", 5000L, "lab-3", 5000L);

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
        lab.cli("lab-1", "DEBUG POPULATE 20000 user 32");
        lab.seed("lab-2", "user", 5000);
        lab.awaitKeys("lab-3", 5000);
        seeded = lab.digests();
    }

    @Test
    @Order(0)
    void theShippedPlaybookHasTheStepsTheChainsKillAt() throws IOException {
        // a step added to the playbook must get its boundary here
        Matcher step = Pattern.compile("(?m)^    - (?:name: (.+)|(\\w+):)").matcher(Files.readString(PLAYBOOK));
        List<String> names = new ArrayList<>();
        while (step.find()) {
            names.add(step.group(1) != null ? step.group(1).strip() : step.group(2));
        }
        assertThat(names).isEqualTo(STEPS);
    }

    @Test
    @Order(1)
    void thePlainHostKilledAtEveryStepBoundaryEndsRestartedUnderNeverWithEveryKey() throws Exception {
        chain("lab-1", "lab-1");
        assertThat(fleet.thpMode("lab-2")).as("lab-2 was not in --limit").contains("always");
    }

    @Test
    @Order(2)
    void thePrimaryKilledAtEveryStepBoundaryEndsPrimaryAgainRestartedUnderNeverWithEveryKey() throws Exception {
        // the pair starts this chain untouched: the first chain ran with --limit lab-1
        assertThat(fleet.thpMode("lab-2")).contains("always");
        assertThat(fleet.thpMode("lab-3")).contains("always");
        String replicaBefore = runId("lab-3");
        chain("lab-2,lab-3", "lab-2");
        // the replica's batch ran in the first process, and its Redis too restarted under never
        assertThat(fleet.thpMode("lab-3")).contains("never");
        assertThat(runId("lab-3")).isNotEqualTo(replicaBefore);
    }

    /**
     * Runs thp-off.yaml on {@code limit}, killing one process at each step boundary of {@code watched}, then a last
     * resume to the end; checks the hosts at every kill and at the end.
     */
    private static void chain(String limit, String watched) throws Exception {
        Path runDir = dir.resolve("run-" + watched);
        String before = runId(watched);
        // every step as shipped, its benchmarks brief: what is checked is the flow, not the figures
        Path playbook = ShippedPlaybook.thpOffBrief(dir.resolve("brief-" + watched));
        Optional<String> restarted = Optional.empty();
        for (int i = 0; i < STEPS.size(); i++) {
            String step = STEPS.get(i);
            List<String> args = i == 0
                    ? List.of(
                            "apply",
                            playbook.toString(),
                            "-i",
                            fleet.inventoryFile().toString(),
                            "--limit",
                            limit,
                            "--no-color",
                            "--run-dir",
                            runDir.toString())
                    : List.of("apply", "--resume", runDir.toString(), "--no-color");
            Killed killed = killedAfter(args, watched, step, dir.resolve("killed-" + watched + "-" + (i + 1) + ".out"));
            String at = "killed after " + watched + "'s step " + (i + 1) + " (" + step + ")\n" + killed.output();
            System.out.println(at);

            assertThat(killed.status()).as(at).isIn("ok", "changed", "skipped");
            everyUserKeyKept(at);
            boolean failoverMayHaveBegun = step.equals("persist_thp") && watched.equals("lab-2");
            if (!failoverMayHaveBegun) {
                rolesAsTheyWere(at);
            }
            int index = i + 1;
            if (index >= STEPS.indexOf("thp") + 1) {
                assertThat(fleet.thpMode(watched)).as(at).contains("never");
            }
            if (step.equals("thp") || step.equals("persist_thp")) {
                assertThat(exists(watched, RECORD))
                        .as("the record of a pending restart\n" + at)
                        .isTrue();
            }
            if (index >= STEPS.indexOf("restart_redis") + 1) {
                String now = runId(watched);
                assertThat(now).as("Redis ran under never since\n" + at).isNotEqualTo(before);
                if (restarted.isPresent()) {
                    assertThat(now).as("restarted once only\n" + at).isEqualTo(restarted.get());
                }
                restarted = Optional.of(now);
                assertThat(exists(watched, RECORD))
                        .as("record removed after the restart\n" + at)
                        .isFalse();
            }
            if (index > STEPS.indexOf("benchmark before") + 1) {
                // measuring "before" again would measure the changed host; the journal kept the real one, written
                // before the line that said the step ended (a kill right after that line must not lose it)
                assertThat(killed.output())
                        .as(at)
                        .contains("[" + watched + "] benchmark before: before side from the run journal");
            }
            if (step.equals("benchmark after")) {
                assertThat(killed.status())
                        .as("compared with the journaled before side\n" + at)
                        .isNotEqualTo("skipped");
            }
        }

        CliRun last = CliRun.of("apply", "--resume", runDir.toString(), "--no-color");
        System.out.println(last);
        assertThat(last.exitCode()).as(last.toString()).isZero();
        assertThat(runId(watched)).as("Redis ran under never since\n" + last).isNotEqualTo(before);
        assertThat(runId(watched)).as("restarted once only\n" + last).isEqualTo(restarted.orElseThrow());
        assertThat(fleet.thpMode(watched)).contains("never");
        rolesAsTheyWere(last.toString());
        lab.assertIntact(seeded);
        for (String host : List.of("lab-1", "lab-2", "lab-3")) {
            assertThat(lab.cli(host, "--scan --pattern 'fleetfix:*'"))
                    .as(host + " fleetfix keys")
                    .isEmpty();
            assertThat(exists(host, LOCK)).as(host + " lock").isFalse();
            assertThat(exists(host, RECORD)).as(host + " record").isFalse();
        }
    }

    /** What a kill found: everything the process printed, and the status word of the step's end line. */
    private record Killed(String output, String status) {}

    /**
     * fleetfix apply as a process of its own, read line by line and killed with SIGKILL (with any process it started)
     * the moment it prints the end of {@code step} on {@code host}.
     */
    private static Killed killedAfter(List<String> args, String host, String step, Path log) throws Exception {
        Pattern end = Pattern.compile("^\\S+ (ok|changed|skipped|failed|unreachable): \\[" + Pattern.quote(host)
                + "\\] " + Pattern.quote(step) + ": ");
        List<String> command = FleetfixJvm.command(args);
        Process run = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                .start();
        // a run that never prints the line must not hang the build: it is ended, and the test fails below
        Thread watchdog = new Thread(() -> {
            try {
                if (!run.waitFor(PROCESS_MINUTES, TimeUnit.MINUTES)) {
                    run.destroyForcibly();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        watchdog.setDaemon(true);
        watchdog.start();
        StringBuilder output = new StringBuilder();
        String status = null;
        try (BufferedReader lines =
                new BufferedReader(new InputStreamReader(run.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = lines.readLine()) != null) {
                output.append(line).append('\n');
                Matcher m = end.matcher(line);
                if (status == null && m.find()) {
                    status = m.group(1);
                    // SIGKILL through the handle: Process.destroyForcibly would also close the stream still read
                    List<ProcessHandle> children = run.descendants().toList();
                    run.toHandle().destroyForcibly();
                    children.forEach(ProcessHandle::destroyForcibly);
                }
            }
        }
        boolean ended = run.waitFor(30, TimeUnit.SECONDS);
        watchdog.interrupt();
        Files.writeString(log, output);
        String exit = ended ? "exit code " + run.exitValue() : "still running";
        assertThat(status)
                .as("the end of " + host + "'s " + step + " in the output of\n" + String.join(" ", args) + "\n" + exit
                        + "\n" + output)
                .isNotNull();
        return new Killed(output + "(killed: " + exit + ")\n", status);
    }

    /** No user key lost on any host, whatever fleetfix key a step just begun may have written. */
    private static void everyUserKeyKept(String at) {
        for (String host : List.of("lab-1", "lab-2", "lab-3")) {
            assertThat(lab.cli(host, "PING")).as(host + "\n" + at).contains("PONG");
            // a replica applies its primary's last writes a moment later
            LabData.await(() -> userKeys(host) == USER_KEYS.get(host), 10_000);
            assertThat(userKeys(host)).as(host + " user keys\n" + at).isEqualTo(USER_KEYS.get(host));
        }
    }

    private static long userKeys(String host) {
        long all = Long.parseLong(lab.cli(host, "DBSIZE"));
        long ours = lab.cli(host, "--scan --pattern 'fleetfix:*'")
                .lines()
                .filter(l -> !l.isBlank())
                .count();
        return all - ours;
    }

    /** lab-1 a primary of its own, lab-2 the primary and lab-3 its replica, in sync. */
    private static void rolesAsTheyWere(String at) {
        assertThat(lab.cli("lab-1", "INFO replication")).as(at).contains("role:master");
        LabData.await(
                () -> lab.cli("lab-3", "INFO replication").contains("master_link_status:up")
                        && lab.cli("lab-2", "INFO replication").contains("connected_slaves:1"),
                30_000);
        assertThat(lab.cli("lab-2", "INFO replication")).as(at).contains("role:master", "connected_slaves:1");
        assertThat(lab.cli("lab-3", "INFO replication"))
                .as(at)
                .contains("role:slave", "master_host:" + fleet.host("lab-2").address(), "master_link_status:up");
    }

    private static boolean exists(String host, String path) {
        return !fleet.rootExec(host, "ls -d " + path + " 2>/dev/null").stdout().isBlank();
    }

    private static String runId(String host) {
        return lab.runId(host);
    }
}
