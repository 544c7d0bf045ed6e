package dev.fleetfix.rollout;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fleetfix.fake.Harness;
import dev.fleetfix.rollout.event.BatchStarted;
import dev.fleetfix.rollout.event.GateChecked;
import dev.fleetfix.rollout.event.HostOutcome;
import dev.fleetfix.rollout.event.HostStarted;
import dev.fleetfix.rollout.event.PlayHalted;
import dev.fleetfix.rollout.event.RunEnded;
import dev.fleetfix.rollout.event.RunEvent;
import dev.fleetfix.rollout.event.RunOutcome;
import dev.fleetfix.rollout.event.RunStarted;
import dev.fleetfix.rollout.event.RunSummary;
import dev.fleetfix.rollout.event.WindowClosed;
import dev.fleetfix.rollout.plan.RunOptions;
import dev.fleetfix.steps.model.StepStatus;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PlaybookRunnerTest {
    @TempDir
    Path dir;

    private static final String THP_OFF =
            """
            - name: thp off
              hosts: redis
              serial: [1, "50%"]
              max_fail_percentage: 0
              steps:
                - audit: {}
                - thp: {}
                - persist_thp: {method: auto}
                - restart_redis: {unit: "{{ redis_service }}"}
                - wait_healthy: {timeout: 20s, gates: [ping, loading_done, role_unchanged, replica_synced]}
            """;

    private <T extends RunEvent> List<T> events(Harness h, Class<T> type) {
        synchronized (h.events) {
            return h.events.stream().filter(type::isInstance).map(type::cast).toList();
        }
    }

    @Test
    void rollsOutBatchByBatchThenChangesNothingOnASecondRun() throws Exception {
        Harness h = new Harness(dir, "r1", "r2", "r3", "r4", "r5");
        RunSummary first = h.run(THP_OFF);
        assertThat(first.outcome()).isEqualTo(RunOutcome.OK);
        assertThat(first.done()).containsExactly("r1", "r2", "r3", "r4", "r5");
        assertThat(events(h, BatchStarted.class))
                .extracting(BatchStarted::hosts)
                .containsExactly(List.of("r1"), List.of("r2", "r3"), List.of("r4", "r5"));
        h.hosts.values().forEach(host -> {
            assertThat(host.thp("enabled")).isEqualTo("never");
            assertThat(host.redis().restarts()).isEqualTo(1);
        });
        assertThat(events(h, GateChecked.class)).hasSize(5).allMatch(g -> g.result()
                .passed());

        RunSummary second = h.run(THP_OFF);
        assertThat(second.outcome()).isEqualTo(RunOutcome.OK);
        assertThat(second.changed()).isEmpty();
        h.hosts.values().forEach(host -> assertThat(host.redis().restarts()).isEqualTo(1));
    }

    @Test
    void checkModeReportsPendingChangesAndTouchesNothing() throws Exception {
        Harness h = new Harness(dir, "r1", "r2");
        Map<String, String> before = h.host("r1").snapshot();
        RunSummary check = h.check(THP_OFF);
        assertThat(check.outcome()).isEqualTo(RunOutcome.OK);
        assertThat(check.changesPending()).isTrue();
        assertThat(check.changed()).containsExactly("r1", "r2");
        assertThat(h.host("r1").snapshot()).isEqualTo(before);
        assertThat(h.host("r1").redis().restarts()).isZero();

        h.run(THP_OFF);
        assertThat(h.check(THP_OFF).changesPending()).isFalse();
    }

    @Test
    void aFailedBatchHaltsTheRolloutAndLeavesTheRestUntouched() throws Exception {
        Harness h = new Harness(dir, "r1", "r2", "r3", "r4", "r5");
        h.host("r2").restartBreaksRedis();
        // One host at a time: the hosts of a batch share the test clock, and r2's 90 s of waiting for its Redis
        // moved it past r3's own deadlines whenever r3 was still polling (a CI run on a loaded machine saw r3 fail).
        RunSummary summary = h.run(THP_OFF, RunOptions.defaults().withForks(1));
        assertThat(summary.outcome()).isEqualTo(RunOutcome.HALTED);
        assertThat(summary.done()).containsExactly("r1", "r3");
        assertThat(summary.failed()).containsExactly("r2");
        assertThat(summary.untouched()).containsExactly("r4", "r5");
        assertThat(summary.reason()).isEqualTo("batch 2: 1 of 2 hosts failed, more than max_fail_percentage 0%");
        // restart_redis waits until Redis is back (its data check needs it), so it fails first.
        assertThat(h.result("r2", "restart_redis").message())
                .contains("Redis not back after the restart: timed out after 90s");
        assertThat(events(h, PlayHalted.class)).singleElement().satisfies(e -> assertThat(e.untouched())
                .containsExactly("r4", "r5"));
        assertThat(events(h, HostStarted.class)).extracting(HostStarted::host).doesNotContain("r4", "r5");
        assertThat(h.host("r4").thp("enabled")).isEqualTo("always");
        assertThat(h.host("r4").scripts()).isEmpty();
    }

    @Test
    void maxFailPercentageAllowsSomeFailures() throws Exception {
        Harness h = new Harness(dir, "r1", "r2", "r3", "r4");
        h.host("r1").failRestarts();
        String yaml = THP_OFF.replace("max_fail_percentage: 0", "max_fail_percentage: 100");
        RunSummary summary = h.run(yaml);
        assertThat(summary.outcome()).isEqualTo(RunOutcome.HOSTS_FAILED);
        assertThat(summary.failed()).containsExactly("r1");
        assertThat(summary.done()).containsExactly("r2", "r3", "r4");
        assertThat(h.result("r1", "restart_redis").message()).contains("exited 1: Job failed");
    }

    @Test
    void outsideTheWindowApplyRefusesBeforeTouchingAnything() throws Exception {
        Harness h = new Harness(dir, Instant.parse("2026-11-30T10:00:00Z"), "r1", "r2");
        RunSummary summary = h.run(THP_OFF, Harness.withWindow("Sat 01:00-05:00 Europe/Berlin"));
        assertThat(summary.outcome()).isEqualTo(RunOutcome.REFUSED_OUTSIDE_WINDOW);
        assertThat(summary.reason())
                .isEqualTo("outside the change window Sat 01:00-05:00 Europe/Berlin (now Mon 11:00 Europe/Berlin):"
                        + " no host touched");
        assertThat(summary.untouched()).containsExactly("r1", "r2");
        assertThat(h.host("r1").scripts()).isEmpty();
        assertThat(events(h, WindowClosed.class)).singleElement().matches(WindowClosed::beforeStart);
    }

    @Test
    void checkModeOutsideTheWindowForecastsTheRunAndSaysApplyNowWouldBeRefused() throws Exception {
        Harness h = new Harness(dir, Instant.parse("2026-11-30T10:00:00Z"), "r1");
        RunSummary summary = h.run(
                THP_OFF, Harness.withWindow("Sat 01:00-05:00 Europe/Berlin").withCheck(true));
        assertThat(summary.changesPending()).isTrue();
        assertThat(summary.changed()).containsExactly("r1");
        assertThat(summary.outcome()).isEqualTo(RunOutcome.REFUSED_OUTSIDE_WINDOW);
        assertThat(summary.reason())
                .isEqualTo("outside the change window Sat 01:00-05:00 Europe/Berlin (now Mon 11:00 Europe/Berlin):"
                        + " apply now would touch no host; the forecast is for a run inside the window");
        assertThat(h.host("r1").thp("enabled")).isEqualTo("always");
    }

    @Test
    void windowClosingMidRunLetsHostsInFlightFinishAndStartsNoOther() throws Exception {
        // Sat 04:50 Berlin; every step moves the clock 1 minute, so the window closes during batch 2.
        Harness h = new Harness(dir, Instant.parse("2026-11-28T03:50:00Z"), "r1", "r2", "r3", "r4", "r5");
        h.onEachStep(() -> h.clock.advance(Duration.ofMinutes(1)));
        // Hosts of a batch share the clock: the minutes other hosts' steps add must not time out
        // this host's restart or gates while they poll, whatever the thread interleaving.
        String patient = THP_OFF.replace(
                        "{unit: \"{{ redis_service }}\"}", "{unit: \"{{ redis_service }}\", timeout: 1h}")
                .replace("wait_healthy: {timeout: 20s", "wait_healthy: {timeout: 1h");
        assertThat(patient).contains("timeout: 1h}", "wait_healthy: {timeout: 1h");
        RunSummary summary = h.run(
                patient, Harness.withWindow("Sat 01:00-05:00 Europe/Berlin").withForks(10));
        assertThat(summary.outcome()).isEqualTo(RunOutcome.WINDOW_CLOSED);
        assertThat(summary.done()).containsExactly("r1", "r2", "r3");
        assertThat(summary.untouched()).containsExactly("r4", "r5");
        assertThat(summary.reason()).startsWith("the change window Sat 01:00-05:00 Europe/Berlin closed at Sat ");
        WindowClosed closed = events(h, WindowClosed.class).get(0);
        assertThat(closed.beforeStart()).isFalse();
        assertThat(closed.untouched()).containsExactly("r4", "r5");

        // The next window: the same run continues with what is left; done hosts change nothing.
        h.onEachStep(() -> {});
        h.clock.set(Instant.parse("2026-12-05T01:00:00Z"));
        RunSummary next = h.run(THP_OFF, Harness.withWindow("Sat 01:00-05:00 Europe/Berlin"));
        assertThat(next.outcome()).isEqualTo(RunOutcome.OK);
        assertThat(next.changed()).containsExactly("r4", "r5");
    }

    @Test
    void aStepThatFailedToConnectBeforeSendingAnythingIsRetriedWithBackoff() throws Exception {
        Harness h = new Harness(dir, "r1");
        h.host("r1").failTransiently(s -> true);
        Instant start = h.clock.instant();
        RunSummary summary = h.run("- hosts: all\n  steps:\n    - thp: {}\n");
        assertThat(summary.outcome()).isEqualTo(RunOutcome.OK);
        assertThat(h.host("r1").thp("enabled")).isEqualTo("never");
        assertThat(Duration.between(start, h.clock.instant())).as("one backoff").isEqualTo(Duration.ofSeconds(1));
        // the first command is the preflight's read: it was retried, and the step then ran at its first attempt
        assertThat(events(h, dev.fleetfix.rollout.event.StepFinished.class))
                .singleElement()
                .satisfies(f -> assertThat(f.attempts()).isEqualTo(1));
    }

    @Test
    void aStepWhoseConnectionDropsAfterItSentACommandIsNotRunAgain() throws Exception {
        Harness h = new Harness(dir, "r1");
        h.host("r1").failTransiently(s -> s.startsWith("echo never"));
        RunSummary summary = h.run("- hosts: all\n  steps:\n    - thp: {}\n");
        assertThat(summary.failed()).containsExactly("r1");
        assertThat(h.host("r1").scripts().stream().filter(s -> s.startsWith("echo never")))
                .hasSize(1);
        assertThat(events(h, dev.fleetfix.rollout.event.StepFinished.class))
                .singleElement()
                .satisfies(f -> assertThat(f.attempts()).isEqualTo(1));
    }

    @Test
    void aCommandThatTimedOutIsSentOnceAndFailsTheStepNotTheHostsReachability() throws Exception {
        Harness h = new Harness(dir, "r1");
        h.host("r1").timeOut(s -> s.contains("sleep 10"));
        RunSummary summary = h.run("- hosts: all\n  steps:\n    - command: {cmd: \"sleep 10\", timeout: 3s}\n");
        assertThat(summary.failed()).containsExactly("r1");
        assertThat(h.host("r1").scripts().stream().filter(s -> s.contains("sleep 10")))
                .as("sent once, never again")
                .hasSize(1);
        assertThat(h.result("r1", "command").status()).isEqualTo(StepStatus.FAILED);
        assertThat(h.result("r1", "command").message())
                .contains("command timed out after 3s")
                .contains("not sent again")
                .doesNotContain("attempts");
        assertThat(events(h, dev.fleetfix.rollout.event.HostFinished.class))
                .singleElement()
                .satisfies(f -> assertThat(f.outcome()).isEqualTo(HostOutcome.FAILED));
    }

    /**
     * Issue 42, item 8: the connection holder killed while a command runs. The command was sent and may have run: the
     * host failed (its step says so), it is not unreachable, and the command is never sent again.
     */
    @Test
    void aCommandWhoseConnectionBrokeAfterItWasSentFailsTheHostNotItsReachability() throws Exception {
        Harness h = new Harness(dir, "r1");
        h.host("r1").breakAfterSending(s -> s.contains("sleep 10"));
        RunSummary summary = h.run("- hosts: all\n  steps:\n    - command: {cmd: \"sleep 10\", timeout: 30s}\n");
        assertThat(summary.failed()).containsExactly("r1");
        assertThat(h.host("r1").scripts().stream().filter(s -> s.contains("sleep 10")))
                .as("sent once, never again")
                .hasSize(1);
        assertThat(h.result("r1", "command").status()).isEqualTo(StepStatus.FAILED);
        assertThat(h.result("r1", "command").message())
                .contains("the connection holder went away while 'sleep 10' ran")
                .contains("the connection broke after the command was sent; it may have run; not sent again");
        assertThat(events(h, dev.fleetfix.rollout.event.HostFinished.class))
                .singleElement()
                .satisfies(f -> assertThat(f.outcome()).isEqualTo(HostOutcome.FAILED));
    }

    /** Issue 18, item 2: a restart_redis whose restart timed out restarted Redis three times. */
    @Test
    void aRestartThatTimedOutIsSentOnceAndFailsTheStepNotTheHostsReachability() throws Exception {
        Harness h = new Harness(dir, "r1");
        java.util.function.Predicate<String> restart = s ->
                s.startsWith("systemctl restart") || s.startsWith(dev.fleetfix.steps.restart.ServiceRestart.FIRST_LINE);
        h.host("r1").timeOut(restart);
        // thp changes the host, so that restart_redis has a change to restart for
        RunSummary summary =
                h.run("- hosts: all\n  steps:\n    - thp: {}\n    - restart_redis: {unit: \"{{ redis_service }}\"}\n");

        assertThat(summary.failed()).containsExactly("r1");
        assertThat(h.host("r1").scripts().stream().filter(restart))
                .as("the restart was sent once, never again")
                .hasSize(1);
        assertThat(h.result("r1", "restart_redis").status()).isEqualTo(StepStatus.FAILED);
        assertThat(h.result("r1", "restart_redis").message())
                .contains("timed out")
                .contains("not sent again")
                .doesNotContain("attempts");
        assertThat(events(h, dev.fleetfix.rollout.event.StepFinished.class))
                .filteredOn(f -> f.step().equals("restart_redis"))
                .singleElement()
                .satisfies(f -> assertThat(f.attempts()).isEqualTo(1));
        assertThat(events(h, dev.fleetfix.rollout.event.HostFinished.class))
                .singleElement()
                .satisfies(f -> assertThat(f.outcome()).isEqualTo(HostOutcome.FAILED));
    }

    @Test
    void repeatedUnreachableHostsOpenTheCircuitBreaker() throws Exception {
        Harness h = new Harness(dir, "r1", "r2", "r3", "r4", "r5", "r6");
        h.policy(RolloutPolicy.of(2, Duration.ofMillis(100)));
        h.hosts.values().stream().limit(3).forEach(host -> host.failTransientlyAlways());
        String yaml = "- hosts: all\n  serial: 1\n  max_fail_percentage: 100\n  steps:\n    - thp: {}\n";
        RunSummary summary = h.run(yaml);
        assertThat(summary.outcome()).isEqualTo(RunOutcome.HALTED);
        assertThat(summary.reason()).startsWith("circuit breaker open");
        assertThat(summary.failed()).containsExactly("r1", "r2", "r3");
        assertThat(summary.untouched()).containsExactly("r4", "r5", "r6");
        assertThat(events(h, dev.fleetfix.rollout.event.HostFinished.class))
                .filteredOn(f -> f.host().equals("r1"))
                .singleElement()
                .satisfies(f -> assertThat(f.outcome()).isEqualTo(HostOutcome.UNREACHABLE));
    }

    @Test
    void aHostThatCannotBeReachedIsUnreachableAfterRetries() throws Exception {
        Harness h = new Harness(dir, "r1");
        h.host("r1").failTransientlyAlways();
        RunSummary summary = h.run("- hosts: all\n  steps:\n    - thp: {}\n");
        assertThat(summary.failed()).containsExactly("r1");
        // the preflight is the first to find it out, before any change
        assertThat(events(h, dev.fleetfix.rollout.event.HostFinished.class))
                .singleElement()
                .satisfies(f -> assertThat(f.reason())
                        .isEqualTo("preflight, before any change: host r1: timed out (fake) (after 3 attempts)"));
    }

    @Test
    void eventsFrameTheRun() throws Exception {
        Harness h = new Harness(dir, "r1");
        h.run(THP_OFF);
        assertThat(h.events.get(0)).isInstanceOf(RunStarted.class);
        assertThat(h.events.get(h.events.size() - 1)).isInstanceOf(RunEnded.class);
    }

    /** Issue 31, item 4: one host's crash (a StackOverflowError here) ended the whole run, with no run end. */
    @Test
    void aHostWhoseStepCrashesFailsAloneAndTheRunEnds() throws Exception {
        Harness h = new Harness(dir, "r1", "r2", "r3");
        h.host("r2").crashOn(s -> s.startsWith("echo never"));
        RunSummary summary = h.run(
                "- hosts: all\n  max_fail_percentage: 100\n  steps:\n    - thp: {}\n    - persist_thp: {method: auto}\n");
        assertThat(summary.outcome()).isEqualTo(RunOutcome.HOSTS_FAILED);
        assertThat(summary.failed()).containsExactly("r2");
        assertThat(summary.done()).containsExactly("r1", "r3");
        assertThat(h.result("r2", "thp").message()).isEqualTo("internal error: StackOverflowError");
        assertThat(events(h, dev.fleetfix.rollout.event.HostFinished.class))
                .filteredOn(f -> f.host().equals("r2"))
                .singleElement()
                .satisfies(f -> assertThat(f.reason()).isEqualTo("thp: internal error: StackOverflowError"));
        assertThat(h.events.get(h.events.size() - 1)).isInstanceOf(RunEnded.class);
        assertThat(h.host("r3").thp("enabled")).isEqualTo("never");
    }
}
