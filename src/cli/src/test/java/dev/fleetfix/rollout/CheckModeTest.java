package dev.fleetfix.rollout;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fleetfix.fake.Harness;
import dev.fleetfix.health.GateResult;
import dev.fleetfix.report.console.ConsoleReporter;
import dev.fleetfix.report.console.Recap;
import dev.fleetfix.report.files.ReportCollector;
import dev.fleetfix.report.files.ReportJson;
import dev.fleetfix.rollout.event.RunOutcome;
import dev.fleetfix.rollout.event.RunSummary;
import dev.fleetfix.rollout.event.Waiting;
import dev.fleetfix.steps.model.StepResult;
import dev.fleetfix.steps.model.StepStatus;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Check mode predicts: steps after an action it skipped judge the host as the run would leave it,
 * gates are looked at once and never awaited, and only what would fail in apply fails here.
 */
class CheckModeTest {
    @TempDir
    Path dir;

    private static final String THP_OFF =
            """
            - name: thp off
              hosts: redis
              max_fail_percentage: 0
              steps:
                - audit: {}
                - thp: {}
                - persist_thp: {method: auto}
                - restart_redis: {unit: "{{ redis_service }}"}
                - wait_healthy: {timeout: 20s, gates: [ping, loading_done, role_unchanged, replica_synced]}
            """;

    /** Restarts only when something changed, and nothing here changes anything. */
    private static final String RESTART_IF_CHANGED =
            """
            - name: restart if changed
              hosts: redis
              steps:
                - audit: {}
                - restart_redis: {unit: "{{ redis_service }}"}
                - wait_healthy: {timeout: 20s, gates: [ping, loading_done]}
            """;

    private static List<Waiting> waits(Harness h) {
        synchronized (h.events) {
            return h.events.stream()
                    .filter(Waiting.class::isInstance)
                    .map(Waiting.class::cast)
                    .toList();
        }
    }

    private static List<GateResult> gateParts(StepResult result) {
        return result.gates().stream().flatMap(g -> g.parts().stream()).toList();
    }

    @Test
    void aRedisThatIsDownIsForecastToBeStartedAndItsGatesAreNotAwaited() throws Exception {
        Harness h = new Harness(dir, "r1");
        h.host("r1").stopRedis();
        Instant start = h.clock.instant();

        RunSummary check = h.check(THP_OFF);

        assertThat(check.outcome()).as(check.toString()).isEqualTo(RunOutcome.OK);
        assertThat(check.changesPending()).isTrue();
        assertThat(Duration.between(start, h.clock.instant()))
                .as("nothing waited")
                .isZero();
        StepResult restart = h.result("r1", "restart_redis");
        assertThat(restart.status()).isEqualTo(StepStatus.CHANGED);
        assertThat(restart.predicted())
                .containsEntry("redis", "started")
                .containsEntry("redis.route", "start it (it does not answer now)");
        StepResult gates = h.result("r1", "wait_healthy");
        assertThat(gates.status()).isEqualTo(StepStatus.OK);
        assertThat(gates.message())
                .startsWith("forecast: Redis would be started by then; apply would wait up to 20s each for ping,"
                        + " loading_done, replica_synced (not awaited in check mode; now: ping, loading_done")
                .contains("host r1: redis: connection refused (fake))");
        assertThat(gateParts(gates)).isNotEmpty().allSatisfy(g -> assertThat(g.forecast())
                .contains("apply waits up to 20s once Redis is started"));
        assertThat(h.host("r1").redis().restarts()).isZero();
        assertThat(waits(h)).isEmpty();

        // The run then does what the forecast said: Redis started, its gates awaited and passed.
        RunSummary apply = h.run(THP_OFF);
        assertThat(apply.outcome()).isEqualTo(RunOutcome.OK);
        assertThat(h.host("r1").redis().restarts()).isEqualTo(1);
        assertThat(h.result("r1", "wait_healthy").message()).startsWith("healthy after");
    }

    @Test
    void aRedisThatIsDownAndThatNothingStartsFailsTheForecastAsItFailsTheRun() throws Exception {
        Harness h = new Harness(dir, "r1");
        h.host("r1").stopRedis();
        Instant start = h.clock.instant();

        RunSummary check = h.check(RESTART_IF_CHANGED);

        assertThat(Duration.between(start, h.clock.instant()))
                .as("nothing waited")
                .isZero();
        assertThat(check.failed()).containsExactly("r1");
        assertThat(h.result("r1", "restart_redis").status()).isEqualTo(StepStatus.SKIPPED);
        assertThat(h.result("r1", "wait_healthy").message())
                .isEqualTo(
                        "Redis does not answer (host r1: redis: connection refused (fake)) and no step of this run starts it:"
                                + " apply would wait up to 20s for ping, loading_done and fail");

        RunSummary apply = h.run(RESTART_IF_CHANGED);
        assertThat(apply.failed()).containsExactly("r1");
        assertThat(h.result("r1", "wait_healthy").message()).startsWith("ping: timed out after 20s");
    }

    @Test
    void theForecastNamesTheChangesTheRunMakes() throws Exception {
        Harness h = new Harness(dir, "r1");
        h.check(THP_OFF);
        List<String> forecast = h.result("r1", "persist_thp").changes().stream()
                .map(c -> c.what() + " " + c.before() + " → " + c.after())
                .toList();
        h.run(THP_OFF);
        List<String> done = h.result("r1", "persist_thp").changes().stream()
                .map(c -> c.what() + " " + c.before() + " → " + c.after())
                .toList();
        // systemd calls a unit it was just given "disabled"; before the run it was not installed
        assertThat(forecast).isEqualTo(done).contains("fleetfix-thp.service not installed → enabled");
    }

    @Test
    void gatesThatPassNowAreSaidToPassWithoutWaiting() throws Exception {
        Harness h = new Harness(dir, "r1");
        RunSummary check = h.check(RESTART_IF_CHANGED);
        assertThat(check.outcome()).isEqualTo(RunOutcome.OK);
        assertThat(check.changesPending()).isFalse();
        StepResult gates = h.result("r1", "wait_healthy");
        assertThat(gates.message()).isEqualTo("healthy now: ping, loading_done (looked at once in check mode)");
        assertThat(gateParts(gates))
                .extracting(g -> g.forecast().orElseThrow())
                .containsOnly("passes now: apply would not wait");
    }

    @Test
    void aReplicaNotInSyncNowIsWhatApplyWouldWaitForNotAFailure() throws Exception {
        Harness h = new Harness(dir, "r1");
        h.host("r1").redis().replicaOf("10.9.9.9", 6379, 100, "down");
        Instant start = h.clock.instant();
        RunSummary check = h.check(RESTART_IF_CHANGED.replace("[ping, loading_done]", "[ping, replica_synced]"));
        assertThat(check.outcome()).isEqualTo(RunOutcome.OK);
        assertThat(Duration.between(start, h.clock.instant())).isZero();
        assertThat(h.result("r1", "wait_healthy").message())
                .isEqualTo("forecast: apply would wait up to 20s for replica_synced (now: master_link_status:down"
                        + " master_sync_in_progress:0) (not awaited in check mode)");
    }

    @Test
    void theForecastSaysPerHostWhatWouldChangeRestartAndBeAwaited() throws Exception {
        Harness h = new Harness(dir, "r1", "r2");
        h.host("r1").stopRedis();
        StringWriter text = new StringWriter();
        h.checkWith(THP_OFF, new ConsoleReporter(new PrintWriter(text), false, false));
        String out = text.toString();
        assertThat(out)
                .contains("would wait: [r1] wait_healthy: forecast: Redis would be started by then")
                .contains(
                        "      gate ping now: not yet (host r1: redis: connection refused (fake)); apply waits up to 20s once"
                                + " Redis is started")
                .contains("FORECAST (check mode: nothing was changed; what apply would do)")
                .contains("r1: would change\n  change: thp.enabled always → never, thp.defrag always → never,")
                .contains("  restart: start it (it does not answer now) (")
                .contains("  gates: ping, loading_done, replica_synced: apply waits up to 20s once Redis is started\n")
                .contains("r2: would change\n")
                .contains("  restart: BGSAVE, then restart in place (primary, no replica: BGSAVE first (save"
                        + " points))\n"
                        + "  gates: ping, loading_done, role_unchanged, replica_synced: apply waits up to 20s"
                        + " once Redis is restarted\n")
                .contains("check: changes pending on r1, r2");
    }

    @Test
    void theReportKeepsTheForecastAndReportShowPrintsItAgain() throws Exception {
        Harness h = new Harness(dir, "r1");
        h.host("r1").stopRedis();
        ReportCollector collector = new ReportCollector();
        h.checkWith(THP_OFF, collector);
        Path file = dir.resolve("report.json");
        Files.writeString(file, ReportJson.write(collector.report()));
        assertThat(Files.readString(file))
                .contains("\"forecast\" : \"apply waits up to 20s once Redis is started\"")
                .contains("\"redis\" : \"started\"");
        StringWriter text = new StringWriter();
        Recap.print(new PrintWriter(text), false, ReportJson.read(file));
        assertThat(text.toString())
                .contains("r1: would change")
                .contains("  restart: start it (it does not answer now) (")
                .contains("  gates: ping, loading_done, replica_synced: apply waits up to 20s once Redis is started");
    }

    @Test
    void aWaitThatLastsIsToldWithWhatItWaitsForAndForHowLongAtMost() throws Exception {
        Harness h = new Harness(dir, "r1");
        h.host("r1").restartBreaksRedis();
        StringWriter text = new StringWriter();
        h.runWith(THP_OFF, new ConsoleReporter(new PrintWriter(text), false, false));
        assertThat(text.toString())
                .containsPattern("\\[00:0\\d] waiting: \\[r1] restart_redis: Redis back after the restart, at most 90s,"
                        + " 2\\.\\ds so far; now: host r1: redis: connection refused \\(fake\\)");
        List<Waiting> waits = waits(h);
        assertThat(waits.stream()
                        .filter(w -> w.step().equals("restart_redis"))
                        .map(w -> w.pending().what())
                        .distinct())
                .containsExactly("the restart of service redis-server to return", "Redis back after the restart");
        assertThat(waits)
                .filteredOn(w -> w.step().equals("restart_redis"))
                .extracting(w -> w.pending().what())
                .containsSubsequence("the restart of service redis-server to return", "Redis back after the restart");
        // told at 2 s, then at each look while it lasts (the console paces those)
        Waiting back = waits.stream()
                .filter(w -> w.pending().what().equals("Redis back after the restart"))
                .findFirst()
                .orElseThrow();
        assertThat(back.host()).isEqualTo("r1");
        assertThat(back.pending().atMost()).isEqualTo(Duration.ofSeconds(90));
        assertThat(back.pending().waited()).isBetween(Duration.ofSeconds(2), Duration.ofSeconds(3));
        assertThat(back.pending().lastSeen()).isEqualTo("host r1: redis: connection refused (fake)");
    }
}
