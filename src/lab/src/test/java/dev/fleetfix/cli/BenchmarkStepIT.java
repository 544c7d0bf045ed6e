package dev.fleetfix.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fleetfix.lab.LabCli;
import dev.fleetfix.lab.LabFleetExtension;
import dev.fleetfix.lab.LabHostSpec;
import dev.fleetfix.lab.LabThp;
import dev.fleetfix.report.console.RecapLines;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * A playbook benchmarks two lab hosts before and after THP goes to never: the console shows every
 * round and the before/after comparison with its verdict, the benchmark's keys are gone and the
 * user's keys are still there. The lab's THP is a file, not the kernel's, so the change reaches
 * nothing Redis's memory gets: like an A/A run, the only honest verdicts are no change detected or inconclusive, per host
 * and for the fleet.
 *
 * <p>It runs beside another lab test: it asserts the benchmarks' flow (every round, the comparison, the keys gone,
 * the journaled before side on resume) and accepts any verdict, so another fleet's load changes none of its outcomes.
 */
class BenchmarkStepIT {
    private static final List<String> HOSTS = List.of("lab-1", "lab-2");
    private static final String BENCH = "profile: auto, duration: 1s, warmup: 300ms, rounds: 7, connections: 4,"
            + " keyspace: 20000, value_size: 32, bgsave_interval: 400ms";
    private static final String PLAYBOOK = "- name: thp with benchmarks\n"
            + "  hosts: all\n"
            + "  serial: 1\n"
            + "  steps:\n"
            + "    - name: benchmark before\n"
            + "      benchmark: {name: thp, phase: before, " + BENCH + "}\n"
            + "    - thp: {enabled: never, defrag: never}\n"
            + "    - restart_redis: {unit: \"{{ redis_service }}\"}\n"
            + "    - wait_healthy: {timeout: 60s}\n"
            + "    - name: benchmark after\n"
            + "      benchmark: {name: thp, phase: after, " + BENCH + "}\n";

    @RegisterExtension
    static final LabFleetExtension fleet = LabFleetExtension.of(
            LabHostSpec.named("lab-1").withThp(LabThp.ALWAYS),
            LabHostSpec.named("lab-2").withThp(LabThp.ALWAYS));

    @TempDir
    Path dir;

    private CliRun apply(String... options) throws Exception {
        Path playbook = dir.resolve("bench.yaml");
        Files.writeString(playbook, PLAYBOOK);
        CommandLine cmd = Main.commandLine(
                Adapters.builder().runsHome(dir.resolve("fleetfix-runs")).build());
        String[] args = new String[options.length + 4];
        args[0] = "apply";
        args[1] = playbook.toString();
        args[2] = "-i";
        args[3] = fleet.inventoryFile().toString();
        System.arraycopy(options, 0, args, 4, options.length);
        CliRun run = CliRun.of(cmd, args);
        System.out.println(run);
        return run;
    }

    private static String redisCli(String host, String args) {
        return LabCli.redis(fleet.get(), host, args).stdout().strip();
    }

    @Test
    void benchmarksBeforeAndAfterAreComparedAndLeaveOnlyTheUsersKeys() throws Exception {
        for (String host : HOSTS) {
            assertThat(redisCli(host, "set user:keep " + host)).isEqualTo("OK");
            assertThat(redisCli(host, "rpush user:list a b c")).isEqualTo("3");
        }

        CliRun check = apply("--check", "--no-color");
        assertThat(check.exitCode()).as(check.toString()).isEqualTo(ExitCode.CHANGES_PENDING);
        assertThat(check.stdout()).contains("benchmark does not run in check mode");

        CliRun run = apply("--no-color");

        assertThat(run.exitCode()).as(run.toString()).isZero();
        for (String host : HOSTS) {
            assertThat(run.stdout())
                    .as(host)
                    .containsPattern(
                            "ok: \\[" + host + "] benchmark before: thp before, (plain|fork-under-load): 7 rounds")
                    .containsPattern(
                            "ok: \\[" + host + "] benchmark after: thp after, (plain|fork-under-load): 7 rounds")
                    .containsPattern(
                            "benchmark thp before \\S+: [\\d,]+ rps p50=[\\d.]+ms p99=[\\d.]+ms p99.9=[\\d.]+ms"
                                    + " max=[\\d.]+ms")
                    // any verdict: two A/A pairs are called now and then (VerdictLabIT bounds how often), and the
                    // form of each word is tried in RecapLinesTest
                    .containsPattern(RecapLines.host(host, "thp", 7, RecapLines.ANY_VERDICT));
            assertThat(redisCli(host, "--scan --pattern 'fleetfix:bench:*' | wc -l"))
                    .as(host + ": benchmark keys left")
                    .isEqualTo("0");
            assertThat(redisCli(host, "get user:keep")).isEqualTo(host);
            assertThat(redisCli(host, "lrange user:list 0 -1")).isEqualTo("a\nb\nc");
        }
        assertThat(run.stdout())
                .containsPattern(RecapLines.fleet("thp", 2, RecapLines.ANY_VERDICT) + "\\d improved, \\d regressed, ");
    }

    @Test
    void aRunKilledAfterItsBeforeBenchmarkResumesOnlyOnTheSamePlanAndComparesWithTheJournaledBeforeSide()
            throws Exception {
        // the first host (lab-1) waits in its second step until this test lets it go, so the kill falls after its
        // before benchmark was journaled and before its after benchmark
        String gate = "/run/fleetfix-it-go";
        for (String host : HOSTS) {
            fleet.rootExec(host, "rm -f " + gate);
        }
        Path playbook = Files.writeString(
                dir.resolve("killed.yaml"),
                PLAYBOOK.replace(
                        "    - thp: {enabled: never, defrag: never}\n",
                        "    - command: {cmd: \"test -e " + gate + " || sleep 300\", changed_when: \"false\","
                                + " timeout: 330s}\n"
                                + "    - thp: {enabled: never, defrag: never}\n"));
        Path runDir = dir.resolve("run");
        Path journal = runDir.resolve("journal.jsonl");
        Path firstOut = dir.resolve("first.out");
        Process first = new ProcessBuilder(FleetfixJvm.command(
                        "apply",
                        playbook.toString(),
                        "-i",
                        fleet.inventoryFile().toString(),
                        "--no-color",
                        "--run-dir",
                        runDir.toString()))
                .redirectErrorStream(true)
                .redirectOutput(firstOut.toFile())
                .start();
        try {
            LabData.await(
                    () -> {
                        try {
                            return Files.exists(journal)
                                    && Files.readString(journal).contains("\"event\":\"benchmark_before\"");
                        } catch (java.io.IOException e) {
                            return false;
                        }
                    },
                    180_000);
        } finally {
            first.destroyForcibly(); // SIGKILL: no ending, no run_ended, lab-1's lock left behind
            first.waitFor(30, TimeUnit.SECONDS);
        }
        String killed = Files.readString(firstOut);
        System.out.println("first run, killed\n" + killed);
        assertThat(Files.readString(journal))
                .as(killed)
                .contains("\"event\":\"benchmark_before\"", "\"host\":\"lab-1\"")
                .doesNotContain("run_ended");
        for (String host : HOSTS) {
            fleet.rootExec(host, "touch " + gate);
        }

        Files.writeString(playbook, Files.readString(playbook) + "# edited after the run started\n");
        CliRun refused = CliRun.of("apply", "--resume", runDir.toString(), "--no-color");
        System.out.println(refused);
        assertThat(refused.exitCode()).as(refused.toString()).isEqualTo(ExitCode.USAGE);
        assertThat(refused.stderr())
                .as(refused.toString())
                .contains("--resume " + runDir + ": the playbook " + playbook + " changed since the run started");
        assertThat(refused.stdout()).as(refused.toString()).doesNotContain("lab-1");

        CliRun forced = CliRun.of("apply", "--resume", runDir.toString(), "--force", "--no-color");
        System.out.println(forced);
        assertThat(forced.exitCode()).as(forced.toString()).isZero();
        assertThat(forced.stderr()).contains("--force: resuming although the playbook " + playbook + " changed");
        assertThat(forced.stdout())
                .as(forced.toString())
                // lab-1's before side is the one measured before the kill, not a second one of a host in mid-change
                .containsPattern("ok: \\[lab-1] benchmark before: before side from the run journal, measured at \\S+"
                        + " by run \\S+ \\(7 rounds\\); not measured again")
                .containsPattern("ok: \\[lab-2] benchmark before: thp before, (plain|fork-under-load): 7 rounds")
                .containsPattern("ok: \\[lab-1] benchmark after: thp after, (plain|fork-under-load): 7 rounds")
                .containsPattern(RecapLines.host("lab-1", "thp", 7, RecapLines.ANY_VERDICT))
                .containsPattern(RecapLines.host("lab-2", "thp", 7, RecapLines.ANY_VERDICT));
        for (String host : HOSTS) {
            assertThat(redisCli(host, "--scan --pattern 'fleetfix:*' | wc -l"))
                    .as(host + ": fleetfix keys left")
                    .isEqualTo("0");
            assertThat(fleet.rootExec(host, "test -e /run/lock/fleetfix.lock && echo locked")
                            .stdout())
                    .as(host + ": lock left")
                    .isEmpty();
            fleet.rootExec(host, "rm -f " + gate);
        }
    }
}
