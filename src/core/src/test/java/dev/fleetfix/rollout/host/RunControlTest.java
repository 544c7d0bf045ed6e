package dev.fleetfix.rollout.host;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.fleetfix.InputException;
import dev.fleetfix.bench.BenchResult;
import dev.fleetfix.bench.ClientCpu;
import dev.fleetfix.bench.Latency;
import dev.fleetfix.bench.LatencyPoint;
import dev.fleetfix.bench.Phase;
import dev.fleetfix.bench.WindowSample;
import dev.fleetfix.bench.host.HostBenchmark;
import dev.fleetfix.bench.plan.BenchRun;
import dev.fleetfix.bench.plan.SweepPoint;
import dev.fleetfix.fake.FakeHost;
import dev.fleetfix.fake.Harness;
import dev.fleetfix.redis.load.RedisEvidence;
import dev.fleetfix.rollout.ApplyRequest;
import dev.fleetfix.rollout.event.BenchmarkFinished;
import dev.fleetfix.rollout.event.HostFinished;
import dev.fleetfix.rollout.event.HostOutcome;
import dev.fleetfix.rollout.event.RunOutcome;
import dev.fleetfix.rollout.event.RunSummary;
import dev.fleetfix.rollout.event.StepFinished;
import dev.fleetfix.rollout.journal.ControlNode;
import dev.fleetfix.rollout.journal.JournaledBenchmark;
import dev.fleetfix.rollout.journal.RunControl;
import dev.fleetfix.rollout.journal.RunInputs;
import dev.fleetfix.rollout.journal.RunJournal;
import dev.fleetfix.rollout.shard.ShardSpec;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Host locks, stop requests, the run journal and resuming from it. */
class RunControlTest {
    @TempDir
    Path dir;

    private static final String PLAY =
            """
            - name: thp off
              hosts: all
              serial: 1
              steps:
                - thp: {}
                - restart_redis: {}
            """;

    private static RunControl.LockOwner owner(String run) {
        return new RunControl.LockOwner(run, "ops", ControlNode.name(), 999999999, Duration.ofHours(2), Set.of());
    }

    @Test
    void aHostLockedByAnotherRunIsRefusedAndTheLockKept() throws Exception {
        FakeHost host = new FakeHost("r1", dir);
        Instant now = Instant.parse("2026-11-28T01:30:00Z");
        assertThat(HostLock.acquire(host.shell(), owner("run-a"), now)).isEmpty();
        assertThat(host.read("/run/lock/fleetfix.lock/owner")).get().asString().contains("run=run-a");
        // the same run takes it again (next play, retries)
        assertThat(HostLock.acquire(host.shell(), owner("run-a"), now)).isEmpty();

        Optional<String> refused = HostLock.acquire(host.shell(), owner("run-b"), now.plusSeconds(600));
        assertThat(refused)
                .get()
                .asString()
                .startsWith("locked by run run-a (pid 999999999 on control node " + ControlNode.name()
                        + ") since 2026-11-28T01:30:00Z (10 min ago): /run/lock/fleetfix.lock");
        HostLock.release(host.shell(), owner("run-b"));
        assertThat(host.read("/run/lock/fleetfix.lock/owner")).isPresent();
        HostLock.release(host.shell(), owner("run-a"));
        assertThat(host.read("/run/lock/fleetfix.lock/owner")).isEmpty();
    }

    @Test
    void checkModeReadsLocksWithoutTakingThemAndForecastsTheRefusal() throws Exception {
        Harness h = new Harness(dir, "r1", "r2");
        Instant now = h.clock.instant();
        assertThat(HostLock.acquire(h.host("r2").shell(), owner("run-a"), now.minusSeconds(600)))
                .isEmpty();
        h.control(new RunControl(Optional.of(owner("check-run")), Set.of()));
        RunSummary check = h.run(
                PLAY.replace("serial: 1", "max_fail_percentage: 100"),
                Harness.sequential().withCheck(true));
        assertThat(check.failed()).containsExactly("r2");
        assertThat(h.events)
                .filteredOn(HostFinished.class::isInstance)
                .map(e -> ((HostFinished) e).reason())
                .anySatisfy(reason -> assertThat(reason)
                        .startsWith("apply would be refused: locked by run run-a (pid 999999999 on control node vm)"
                                + " since 2026-11-28T01:20:00Z (10 min ago): /run/lock/fleetfix.lock"));
        assertThat(h.host("r1").read("/run/lock/fleetfix.lock/owner"))
                .as("check mode takes no lock")
                .isEmpty();
        assertThat(h.host("r2").read("/run/lock/fleetfix.lock/owner"))
                .get()
                .asString()
                .contains("run=run-a");
    }

    @Test
    void aStaleLockIsReportedNotTakenOver() {
        FakeHost host = new FakeHost("r1", dir);
        Instant then = Instant.parse("2026-11-28T01:30:00Z");
        assertThat(HostLock.acquire(host.shell(), owner("old"), then)).isEmpty();
        Optional<String> refused = HostLock.acquire(host.shell(), owner("new"), then.plus(Duration.ofHours(3)));
        assertThat(refused)
                .get()
                .asString()
                .contains("looks stale (older than 120 min); not taken over")
                .contains("rm -rf /run/lock/fleetfix.lock");
        assertThat(host.read("/run/lock/fleetfix.lock/owner")).get().asString().contains("run=old");
    }

    @Test
    void aResumedRunTakesOverTheLockOfTheRunItResumes() {
        FakeHost host = new FakeHost("r1", dir);
        Instant now = Instant.parse("2026-11-28T01:30:00Z");
        assertThat(HostLock.acquire(host.shell(), owner("first"), now)).isEmpty();
        RunControl.LockOwner resumer =
                new RunControl.LockOwner("second", "ops", ControlNode.name(), 1, Duration.ofHours(2), Set.of("first"));
        assertThat(HostLock.acquire(host.shell(), resumer, now.plusSeconds(60))).isEmpty();
        assertThat(host.read("/run/lock/fleetfix.lock/owner")).get().asString().contains("run=second");
        HostLock.release(host.shell(), resumer);
        assertThat(host.read("/run/lock/fleetfix.lock/owner")).isEmpty();
    }

    @Test
    void aLockWhoseProcessIsGoneOnThisMachineIsStale() {
        FakeHost host = new FakeHost("r1", dir);
        Instant now = Instant.parse("2026-11-28T01:30:00Z");
        // pid 999999999 does not exist here
        assertThat(HostLock.acquire(host.shell(), owner("old"), now)).isEmpty();
        assertThat(HostLock.acquire(host.shell(), owner("new"), now.plusSeconds(60)))
                .get()
                .asString()
                .contains("its process 999999999 is gone");
    }

    @Test
    void theRunTakesAndReleasesEachHostsLockAndALockedHostFails() throws Exception {
        Harness h = new Harness(dir, "r1", "r2");
        h.control(new RunControl(Optional.of(owner("run-1")), Set.of()));
        assertThat(HostLock.acquire(h.host("r2").shell(), owner("other"), Instant.parse("2026-11-28T01:29:00Z")))
                .isEmpty();
        RunSummary summary = h.run(PLAY);
        assertThat(summary.done()).containsExactly("r1");
        assertThat(summary.failed()).containsExactly("r2");
        assertThat(h.events)
                .filteredOn(e -> e instanceof HostFinished f && f.host().equals("r2"))
                .singleElement()
                .satisfies(e -> assertThat(((HostFinished) e).reason()).startsWith("locked by run other"));
        assertThat(h.host("r1").read("/run/lock/fleetfix.lock/owner")).isEmpty();
        assertThat(h.host("r2").thp("enabled")).isEqualTo("always");
    }

    @Test
    void aHostIsSaidToBeDoneOnlyAfterItsLockIsReleased() throws Exception {
        // a run killed right after the journal calls a host done must not leave that host locked: a resume skips it
        Harness h = new Harness(dir, "r1");
        h.control(new RunControl(Optional.of(owner("run-1")), Set.of()));
        List<Boolean> lockedWhenDone = new ArrayList<>();
        h.runWith(PLAY, e -> {
            if (e instanceof HostFinished) {
                lockedWhenDone.add(
                        h.host("r1").read("/run/lock/fleetfix.lock/owner").isPresent());
            }
        });
        assertThat(lockedWhenDone).containsExactly(false);
    }

    @Test
    void aStopRequestLetsTheHostInFlightFinishAndStartsNoOther() throws Exception {
        Harness h = new Harness(dir, "r1", "r2", "r3");
        RunControl control = new RunControl(Optional.empty(), Set.of());
        h.control(control);
        h.onEachStep(() -> control.requestStop("interrupted by a signal"));
        RunSummary summary = h.run(PLAY);
        assertThat(summary.outcome()).isEqualTo(RunOutcome.HALTED);
        assertThat(summary.reason()).startsWith("stopped (interrupted by a signal)");
        assertThat(summary.done()).containsExactly("r1");
        assertThat(summary.untouched()).containsExactly("r2", "r3");
        assertThat(h.results("r1", "restart_redis")).hasSize(1);
        assertThat(h.host("r1").redis().restarts()).isEqualTo(1);
    }

    @Test
    void theJournalRecordsDoneHostsAndAResumeSkipsThem() throws Exception {
        Harness h = new Harness(dir, "r1", "r2", "r3");
        RunControl first = new RunControl(Optional.empty(), Set.of());
        AtomicInteger steps = new AtomicInteger();
        h.control(first);
        h.onEachStep(() -> {
            if (steps.incrementAndGet() == 4) {
                first.requestStop("interrupted by a signal");
            }
        });
        RunJournal journal = new RunJournal(dir.resolve("run"));
        RunSummary stopped = h.runWith(PLAY, journal);
        assertThat(stopped.done()).containsExactly("r1", "r2");

        RunJournal.Resumable resumable = RunJournal.read(dir.resolve("run"));
        assertThat(resumable.done()).containsExactlyInAnyOrder("thp off\nr1", "thp off\nr2");
        assertThat(resumable.lastOutcome()).contains("HALTED");

        h.onEachStep(() -> {});
        h.control(new RunControl(Optional.empty(), resumable.done()));
        RunSummary resumed = h.runWith(PLAY, journal);
        assertThat(resumed.outcome()).isEqualTo(RunOutcome.OK);
        assertThat(resumed.done()).containsExactly("r1", "r2", "r3");
        assertThat(h.events)
                .filteredOn(e -> e instanceof StepFinished)
                .extracting(e -> ((StepFinished) e).host())
                .containsOnly("r3");
        assertThat(h.host("r1").redis().restarts()).isEqualTo(1);
        assertThat(RunJournal.read(dir.resolve("run")).done()).hasSize(3);
        assertThat(Files.readAllLines(journal.file())).anyMatch(l -> l.contains("\"event\":\"run_ended\""));
    }

    @Test
    void aPartialLastLineFromAKilledRunIsIgnored() throws Exception {
        Path run = dir.resolve("run");
        Files.createDirectories(run);
        Files.writeString(
                run.resolve("journal.jsonl"),
                "{\"event\":\"apply\",\"run\":\"r-1\",\"playbook\":\"/p.yaml\",\"limit\":\"redis\"}\n"
                        + "{\"event\":\"host_finished\",\"play\":\"p\",\"host\":\"a\",\"outcome\":\"DONE\"}\n"
                        + "{\"event\":\"host_fin");
        RunJournal.Resumable r = RunJournal.read(run);
        assertThat(r.playbook()).contains("/p.yaml");
        assertThat(r.limit()).contains("redis");
        assertThat(r.done()).containsExactly("p\na");
        assertThat(r.runs()).containsExactly("r-1");
    }

    @Test
    void aHostsReasonIsKeptToALinesWorthInTheJournal() throws Exception {
        try (RunJournal journal = new RunJournal(dir.resolve("run"))) {
            journal.on(new HostFinished(
                    Instant.parse("2026-11-28T01:30:00Z"),
                    "p",
                    "r1",
                    HostOutcome.FAILED,
                    "command: exited 1: " + "x".repeat(1_000_000),
                    java.time.Duration.ZERO,
                    java.util.Map.of()));
        }
        String line = Files.readString(dir.resolve("run").resolve("journal.jsonl"));
        assertThat(line.length()).isLessThan(5000);
        assertThat(line).contains("dropped ...").contains("\"outcome\":\"FAILED\"");
    }

    private static BenchRun round(String host, String name, Phase phase, double rps) {
        Latency latency = new Latency(
                OptionalDouble.of(0.4),
                OptionalDouble.empty(),
                OptionalDouble.of(12.0),
                Map.of(50.0, 0.3, 99.0, 1.5),
                List.of(new LatencyPoint(50.0, 0.3), new LatencyPoint(100.0, 12.0)),
                Optional.of("HISTFAAAA"));
        BenchResult set = new BenchResult(
                "SET",
                rps,
                OptionalLong.of(1000),
                latency,
                List.of(new WindowSample(0.5, 500, 0.3, 0.5, 1.5, 3.0, 4.0, 12.0)),
                Optional.of(new ClientCpu(0.25, 0.5)));
        return new BenchRun(host, name, phase, List.of(set))
                .withEvidence(new RedisEvidence(
                        Map.of("latest_fork_usec", "812"),
                        OptionalLong.of(2048),
                        List.of(new RedisEvidence.LatencyEvent("fork", 1764300000L, 3, 9)),
                        List.of(new RedisEvidence.LatencySpike(1764300000L, 9)),
                        List.of("LATENCY: off")));
    }

    @Test
    void aBenchmarksRoundsReadBackFromTheJournalAsTheyWereMeasured() throws Exception {
        BenchRun measured = round("r1", "thp", Phase.BEFORE, 1234.5);
        BenchRun sweepControl = round("r2", "thp", Phase.BEFORE, 99.0)
                .at(new SweepPoint(512, Optional.of(false)))
                .asControlOf("r1", Phase.BEFORE);
        try (RunJournal journal = new RunJournal(dir.resolve("run"))) {
            journal.on(new dev.fleetfix.rollout.event.StepFinished(
                    Instant.parse("2026-11-28T01:30:00Z"),
                    "p",
                    "r1",
                    1,
                    "benchmark",
                    "benchmark",
                    dev.fleetfix.steps.model.StepResult.ok("measured")
                            .withFacts(Map.of("benchmark.thp.profile", "plain"))
                            .withBenchmarks(List.of(measured, sweepControl)),
                    Duration.ofSeconds(3),
                    1));
        }

        JournaledBenchmark read = RunJournal.read(dir.resolve("run"))
                .befores()
                .values()
                .iterator()
                .next();

        assertThat(read.runs()).containsExactly(measured, sweepControl);
        assertThat(read.facts()).containsEntry("benchmark.thp.profile", "plain");
        assertThat(read.key()).isEqualTo(JournaledBenchmark.key("p", "r1", 1, "benchmark", "benchmark"));
    }

    @Test
    void aResumedHostIsComparedWithTheBeforeSideItsJournalKeptNotWithASecondMeasurement() throws Exception {
        List<Phase> measured = new ArrayList<>();
        Harness h = new Harness(dir, "r1");
        h.registry(dev.fleetfix.steps.StepRegistry.standard(new dev.fleetfix.steps.facts.ShellFacts())
                .with(new dev.fleetfix.steps.BenchmarkStep((host, shell, controls, plan, progress) -> {
                    measured.add(plan.phase());
                    return List.of(new HostBenchmark.Outcome(
                            host,
                            List.of(round(host.name(), plan.name(), plan.phase(), 1000.0 * measured.size())),
                            Optional.empty(),
                            Optional.empty()));
                })));
        String play =
                """
                - name: bench
                  hosts: all
                  steps:
                    - benchmark: {name: thp, phase: before, profile: plain}
                    - thp: {}
                    - restart_redis: {}
                    - benchmark: {name: thp, phase: after, profile: plain}
                """;
        h.host("r1").failRestarts();
        RunJournal journal = new RunJournal(dir.resolve("run"));
        RunSummary first = h.runWith(play, journal);
        assertThat(first.failed()).containsExactly("r1");
        assertThat(measured).containsExactly(Phase.BEFORE);

        // resumed: THP is already off on r1; measuring "before" again would measure the changed host
        h.host("r1").delete("/fail-restart");
        h.events.clear();
        RunJournal.Resumable resumable = RunJournal.read(dir.resolve("run"));
        h.control(new RunControl(Optional.empty(), Optional.empty(), resumable.done(), resumable.befores()));
        RunSummary resumed = h.runWith(play, journal);
        journal.close();

        assertThat(resumed.outcome()).isEqualTo(RunOutcome.OK);
        assertThat(measured).containsExactly(Phase.BEFORE, Phase.AFTER);
        assertThat(h.results("r1", "benchmark").get(0).message())
                .startsWith("before side from the run journal, measured at 2026-11-28T01:30:00Z (1 round)");
        assertThat(h.events)
                .filteredOn(e -> e instanceof BenchmarkFinished)
                .extracting(e -> ((BenchmarkFinished) e).run())
                .extracting(r -> r.phase() + " " + r.results().get(0).rps())
                .containsExactly("BEFORE 1000.0", "AFTER 2000.0");
    }

    @Test
    void aResumedHostWhoseThpTheRunAlreadyChangedStillReplaysItsBeforeSideAndIsCompared() throws Exception {
        List<Phase> measured = new ArrayList<>();
        Harness h = new Harness(dir, "r1");
        h.registry(dev.fleetfix.steps.StepRegistry.standard(new dev.fleetfix.steps.facts.ShellFacts())
                .with(new dev.fleetfix.steps.BenchmarkStep((host, shell, controls, plan, progress) -> {
                    measured.add(plan.phase());
                    return List.of(new HostBenchmark.Outcome(
                            host,
                            List.of(round(host.name(), plan.name(), plan.phase(), 1000.0 * measured.size())),
                            Optional.empty(),
                            Optional.empty()));
                })));
        // the shipped thp-off.yaml's guard: a host already at never has nothing to compare
        String play =
                """
                - name: bench
                  hosts: all
                  steps:
                    - audit: {}
                    - benchmark: {name: thp, phase: before, profile: plain}
                      when: thp.enabled != never
                    - thp: {}
                    - restart_redis: {}
                    - benchmark: {name: thp, phase: after, profile: plain}
                """;
        h.host("r1").failRestarts();
        RunJournal journal = new RunJournal(dir.resolve("run"));
        RunSummary first = h.runWith(play, journal);
        assertThat(first.failed()).containsExactly("r1");
        assertThat(h.host("r1").thp("enabled")).isEqualTo("never");

        // resumed: the audit now reads never, which this run set after it measured the before side
        h.host("r1").delete("/fail-restart");
        h.events.clear();
        RunJournal.Resumable resumable = RunJournal.read(dir.resolve("run"));
        h.control(new RunControl(Optional.empty(), Optional.empty(), resumable.done(), resumable.befores()));
        RunSummary resumed = h.runWith(play, journal);
        journal.close();

        assertThat(resumed.outcome()).isEqualTo(RunOutcome.OK);
        assertThat(h.results("r1", "benchmark").get(0).message())
                .startsWith("before side from the run journal, measured at");
        assertThat(measured).containsExactly(Phase.BEFORE, Phase.AFTER);
        assertThat(h.events)
                .filteredOn(e -> e instanceof BenchmarkFinished)
                .extracting(e -> ((BenchmarkFinished) e).run())
                .extracting(r -> r.phase() + " " + r.results().get(0).rps())
                .containsExactly("BEFORE 1000.0", "AFTER 2000.0");
    }

    @Test
    void aJournalOfAnEarlierFleetfixWithoutDigestsOrBenchmarksStillResumes() throws Exception {
        Path run = Files.createDirectories(dir.resolve("run"));
        Files.writeString(
                run.resolve("journal.jsonl"),
                "{\"event\":\"apply\",\"run\":\"r-1\",\"playbook\":\"/p.yaml\"}\n"
                        + "{\"at\":\"2026-11-28T01:30:00Z\",\"event\":\"host_finished\",\"play\":\"p\","
                        + "\"host\":\"a\",\"outcome\":\"DONE\",\"reason\":\"\"}\n"
                        + "{\"at\":\"2026-11-28T01:31:00Z\",\"event\":\"handed_over\",\"play\":\"p\"}\n");

        RunJournal.Resumable r = RunJournal.read(run);

        assertThat(r.done()).containsExactly("p\na");
        assertThat(r.inputs()).isEmpty();
        assertThat(r.befores()).isEmpty();
        Path playbook = Files.writeString(dir.resolve("p.yaml"), "- hosts: all\n");
        assertThat(new ApplyRequest.Resume(run, r).changes(RunInputs.read(playbook, Optional.empty())))
                .isEmpty();
        assertThat(r.shard()).as("a journal from before shards were recorded").isEmpty();
    }

    @Test
    void aResumeTakesTheJournaledShardAndAnotherOnlyWithForce() throws Exception {
        Path run = Files.createDirectories(dir.resolve("run"));
        Files.writeString(
                run.resolve("journal.jsonl"),
                "{\"event\":\"apply\",\"run\":\"r-1\",\"playbook\":\"/p.yaml\",\"shard\":\"2/3\"}\n");
        Optional<ShardSpec> two = Optional.of(new ShardSpec(2, 3));
        Optional<ShardSpec> three = Optional.of(new ShardSpec(3, 3));

        ApplyRequest.Resume resume = ApplyRequest.Resume.read(run);
        assertThat(resume.shard(Optional.empty())).isEqualTo(two);
        assertThat(resume.shard(two)).isEqualTo(two);
        assertThatThrownBy(() -> resume.shard(three))
                .isInstanceOf(InputException.class)
                .hasMessageContaining("ran shard 2/3, not shard 3/3");
        assertThat(ApplyRequest.Resume.read(run, true).shard(three)).isEqualTo(three);

        Files.writeString(
                run.resolve("journal.jsonl"),
                "{\"event\":\"apply\",\"run\":\"r-1\",\"playbook\":\"/p.yaml\",\"shard\":\"4/3\"}\n");
        assertThatThrownBy(() -> ApplyRequest.Resume.read(run))
                .isInstanceOf(InputException.class)
                .hasMessageContaining("journal.jsonl:1: shard: --shard 4/3: K must be 1..3");
    }
}
