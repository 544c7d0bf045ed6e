package dev.fleetfix.rollout.host;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fleetfix.fake.FakeHost;
import dev.fleetfix.fake.Harness;
import dev.fleetfix.playbook.StepSignature;
import dev.fleetfix.rollout.event.RunSummary;
import dev.fleetfix.rollout.journal.ControlNode;
import dev.fleetfix.rollout.journal.RunControl;
import dev.fleetfix.steps.StepHandler;
import dev.fleetfix.steps.StepRegistry;
import dev.fleetfix.steps.StepType;
import dev.fleetfix.steps.facts.ShellFacts;
import dev.fleetfix.steps.model.StepArgs;
import dev.fleetfix.steps.model.StepResult;
import dev.fleetfix.steps.restart.PendingRestart;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 25, item 3: whatever step of thp-off.yaml fails, is refused or is stopped, nothing of fleetfix's is left on
 * the host: no canary key, no temporary file, no host lock; the restart record only while the restart it records is
 * still due. Each step after the audit fails in turn, at the worst point that can be injected.
 */
class NothingLeftBehindTest {
    @TempDir
    Path dir;

    private static final String LOCK = HostLock.PATH;

    private static String thpOff() throws Exception {
        return Files.readString(Path.of("playbooks", "thp-off.yaml"));
    }

    /** A step type that does all the real step's work, then fails: the latest point a step can fail at. */
    private static StepType failingAfterItsWork(StepRegistry real, String type) {
        StepSignature signature = real.signature(type).orElseThrow();
        return new StepType() {
            @Override
            public StepSignature signature() {
                return signature;
            }

            @Override
            public StepHandler prepare(StepArgs args) {
                StepHandler handler = real.prepare(args);
                return ctx -> {
                    StepResult done = handler.run(ctx);
                    return StepResult.failed("injected failure after: " + done.message());
                };
            }
        };
    }

    private Harness harness(String name) {
        Harness h = new Harness(dir.resolve(name), "r1");
        String run = "20261128T013000Z-" + name.hashCode();
        h.control(new RunControl(
                Optional.of(run),
                Optional.of(new RunControl.LockOwner(
                        run, "ops", ControlNode.name(), 999999999, Duration.ofHours(2), Set.of())),
                Set.of()));
        h.host("r1").redis().data().put("user:1", "kept");
        return h;
    }

    /** What of fleetfix's is on the host: keys under fleetfix:, temporary files, the lock, the restart record. */
    private static List<String> leftBehind(FakeHost host, boolean restartStillDue) throws Exception {
        List<String> left = new java.util.ArrayList<>();
        host.redis().data().keySet().stream()
                .filter(k -> k.startsWith("fleetfix:"))
                .forEach(k -> left.add("key " + k));
        try (Stream<Path> files = Files.walk(host.path("/"))) {
            files.filter(p -> p.getFileName().toString().startsWith(".fleetfix."))
                    .forEach(p -> left.add("temporary file " + p.getFileName()));
        }
        if (host.read(LOCK).isPresent()) {
            left.add("lock " + LOCK);
        }
        if (host.read(PendingRestart.PATH).isPresent() && !restartStillDue) {
            left.add("record " + PendingRestart.PATH + " though Redis restarted under the change");
        }
        return left;
    }

    private record Case(String name, Consumer<Harness> inject, boolean restartStillDue) {}

    @Test
    void everyStepAfterTheAuditFailingInTurnLeavesNothingOfFleetfixs() throws Exception {
        StepRegistry real = StepRegistry.standard(new ShellFacts())
                .with(new dev.fleetfix.steps.BenchmarkStep((host, shell, controls, plan, progress) ->
                        List.of(new dev.fleetfix.bench.host.HostBenchmark.Outcome(
                                host, List.of(), Optional.of("simulated host"), Optional.empty()))));
        List<Case> cases = List.of(
                new Case("benchmark before", h -> h.registry(real.with(failingAfterItsWork(real, "benchmark"))), false),
                // the kernel's defrag write times out after enabled was written
                new Case("thp", h -> h.host("r1").timeOut(s -> s.contains("never") && s.contains("defrag")), true),
                // the unit is written, its enable times out
                new Case("persist_thp", h -> h.host("r1").timeOut(s -> s.contains("systemctl enable")), true),
                // canary written and BGSAVE done: the restart command fails
                new Case("restart_redis (restart fails)", h -> h.host("r1").failRestarts(), true),
                // restarted, and the data check finds keys missing
                new Case("restart_redis (data check)", h -> h.host("r1").redis().losesDataOnRestart(), false),
                new Case(
                        "wait_healthy",
                        h -> h.onEachStep(() -> {
                            if (h.results("r1", "restart_redis").size() == 1
                                    && h.results("r1", "wait_healthy").isEmpty()) {
                                h.host("r1").redis().kill();
                            }
                        }),
                        false),
                new Case("assert", h -> h.registry(real.with(failingAfterItsWork(real, "assert"))), false),
                new Case("benchmark after", h -> h.registry(real.with(failingAfterItsWork(real, "benchmark"))), false));
        AtomicInteger n = new AtomicInteger();
        for (Case c : cases) {
            Harness h = harness("case" + n.incrementAndGet());
            c.inject().accept(h);
            RunSummary summary = h.run(thpOff());

            assertThat(summary.failed()).as(c.name() + ": " + summary).containsExactly("r1");
            assertThat(leftBehind(h.host("r1"), c.restartStillDue()))
                    .as(c.name() + " failed (" + summary.reason() + ")")
                    .isEmpty();
            if (!c.name().contains("data check")) {
                // (the data check's case is a restart that lost the keyspace: that is what it finds)
                assertThat(h.host("r1").redis().data()).as(c.name()).containsEntry("user:1", "kept");
            }
        }
    }

    /** A stop (SIGTERM) while the host's preflight runs: nothing was changed, so nothing is begun. */
    @Test
    void aStopRequestedDuringThePreflightLeavesTheHostUntouched() throws Exception {
        Harness h = harness("stop-preflight");
        RunControl control = new RunControl(
                Optional.of("20261128T013000Z-stop"),
                Optional.of(new RunControl.LockOwner(
                        "20261128T013000Z-stop", "ops", ControlNode.name(), 999999999, Duration.ofHours(2), Set.of())),
                Set.of());
        h.control(control);
        StepRegistry real = StepRegistry.standard(new ShellFacts());
        StepSignature assertSignature = real.signature("assert").orElseThrow();
        h.registry(real.with(new StepType() {
            @Override
            public StepSignature signature() {
                return assertSignature;
            }

            @Override
            public StepHandler prepare(StepArgs args) {
                StepHandler handler = real.prepare(args);
                return ctx -> {
                    if (ctx.check()) {
                        control.requestStop("interrupted by a signal");
                    }
                    return handler.run(ctx);
                };
            }
        }));
        Map<String, String> files = h.host("r1").snapshot();

        RunSummary summary = h.run(thpOff());

        assertThat(summary.reason()).startsWith("stopped (interrupted by a signal)");
        assertThat(summary.untouched()).containsExactly("r1");
        assertThat(h.host("r1").snapshot()).isEqualTo(files);
        assertThat(h.host("r1").thp("enabled")).isEqualTo("always");
        assertThat(leftBehind(h.host("r1"), false)).isEmpty();
    }

    /** SIGTERM asks the run to stop: the host in flight finishes its steps, and leaves nothing behind. */
    @Test
    void aStopRequestedMidHostLeavesNothingOfFleetfixs() throws Exception {
        Harness h = harness("stop");
        RunControl control = new RunControl(
                Optional.of("20261128T013000Z-stop"),
                Optional.of(new RunControl.LockOwner(
                        "20261128T013000Z-stop", "ops", ControlNode.name(), 999999999, Duration.ofHours(2), Set.of())),
                Set.of());
        h.control(control);
        h.onEachStep(() -> control.requestStop("interrupted by a signal"));

        RunSummary summary = h.run(thpOff());

        assertThat(summary.reason()).startsWith("stopped (interrupted by a signal)");
        assertThat(summary.done()).containsExactly("r1");
        assertThat(h.host("r1").redis().restarts()).isEqualTo(1);
        assertThat(leftBehind(h.host("r1"), false)).isEmpty();
        assertThat(h.host("r1").redis().data()).isEqualTo(Map.of("user:1", "kept"));
    }
}
