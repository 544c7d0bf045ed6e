package dev.fleetfix.rollout.host;

import dev.fleetfix.Crash;
import dev.fleetfix.Progress;
import dev.fleetfix.bench.plan.BenchRun;
import dev.fleetfix.health.GateResult;
import dev.fleetfix.health.GateTarget;
import dev.fleetfix.inventory.Connection;
import dev.fleetfix.inventory.Host;
import dev.fleetfix.playbook.Step;
import dev.fleetfix.redis.topology.Sentinels;
import dev.fleetfix.rollout.event.BenchmarkFinished;
import dev.fleetfix.rollout.event.GateChecked;
import dev.fleetfix.rollout.event.HostFinished;
import dev.fleetfix.rollout.event.HostOutcome;
import dev.fleetfix.rollout.event.HostStarted;
import dev.fleetfix.rollout.event.Progressed;
import dev.fleetfix.rollout.event.RunListener;
import dev.fleetfix.rollout.event.StepFinished;
import dev.fleetfix.rollout.event.StepStarted;
import dev.fleetfix.rollout.event.Waiting;
import dev.fleetfix.rollout.journal.JournaledBenchmark;
import dev.fleetfix.rollout.journal.RunControl;
import dev.fleetfix.rollout.plan.RunPlan.PlannedStep;
import dev.fleetfix.steps.facts.FactCondition;
import dev.fleetfix.steps.model.HostState;
import dev.fleetfix.steps.model.RunPorts;
import dev.fleetfix.steps.model.StepContext;
import dev.fleetfix.steps.model.StepResult;
import dev.fleetfix.steps.model.StepStatus;
import dev.fleetfix.transport.RemoteShell;
import dev.fleetfix.transport.ShellPool;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Runs one play's steps on one host, in order, stopping at the first failure; emits its events. One HostRun serves a
 * whole run: it opens each host's shell once, through the run's {@link RunPorts}, and closes them all when the run
 * ends.
 */
public final class HostRun implements AutoCloseable {
    /** How often gates poll, unless a step says otherwise. */
    static final Duration POLL_INTERVAL = Duration.ofMillis(500);

    private final RunPorts ports;
    private final ShellPool shells;
    private final GateTarget.Primaries primaries;
    private final Sentinels sentinels;
    private final Retrier retrier;
    private final RunControl control;
    private final RunListener listener;
    private final String runStamp;
    private final boolean check;

    /**
     * @param ports the run's ports, handed on to every step unchanged
     * @param primaries opens a replica's primary, when it is in the inventory
     * @param sentinels the inventory's Sentinels
     * @param retrier how a transient failure is tried again
     * @param control host locks, the resume set and the stop flag
     * @param listener told of every host's and step's events
     * @param runStamp the run's id
     * @param check check mode
     */
    public HostRun(
            RunPorts ports,
            GateTarget.Primaries primaries,
            Sentinels sentinels,
            Retrier retrier,
            RunControl control,
            RunListener listener,
            String runStamp,
            boolean check) {
        this.ports = ports;
        this.shells = new ShellPool(ports.shells());
        this.primaries = primaries;
        this.sentinels = sentinels;
        this.retrier = retrier;
        this.control = control;
        this.listener = listener;
        this.runStamp = runStamp;
        this.check = check;
    }

    /** Closes the shells the run opened. */
    @Override
    public void close() {
        shells.close();
    }

    /** @param controls unchanged hosts of later batches, for benchmarks that measure controls */
    public HostOutcome run(String play, Host host, List<PlannedStep> steps, HostState state, List<Host> controls)
            throws InterruptedException {
        Instant start = ports.clock().instant();
        state.startPlay(play);
        listener.on(new HostStarted(start, play, host.name()));
        Ended ended = new Visit(play, host, steps, state, controls).run();
        Instant end = ports.clock().instant();
        listener.on(new HostFinished(
                end, play, host.name(), ended.outcome(), ended.reason(), Duration.between(start, end), state.facts()));
        return ended.outcome();
    }

    /** The host's Redis, opened when a step asks. */
    private GateTarget.Connect connect(Host host) {
        return timeout -> ports.redis().connect(host, timeout);
    }

    /** How a host's steps ended, said once the host's lock is released. */
    private record Ended(HostOutcome outcome, String reason) {
        static Ended failed(RuntimeException e, String message) {
            return new Ended(StepFailures.sent(e) ? HostOutcome.FAILED : HostOutcome.UNREACHABLE, message);
        }
    }

    /** One play on one host: its shell, its lock, its preflight, then its steps. */
    private final class Visit {
        private final String play;
        private final Host host;
        private final List<PlannedStep> steps;
        private final HostState state;
        private final List<Host> controls;

        Visit(String play, Host host, List<PlannedStep> steps, HostState state, List<Host> controls) {
            this.play = play;
            this.host = host;
            this.steps = steps;
            this.state = state;
            this.controls = controls;
        }

        Ended run() throws InterruptedException {
            if (host.connection() == Connection.UNSUPPORTED) {
                // Ansible lists a winrm or docker host too, and fails it when a play reaches it; nothing is sent to it
                return new Ended(
                        HostOutcome.UNREACHABLE,
                        "ansible_connection " + host.vars().get("ansible_connection")
                                + " is not a connection fleetfix has (ssh or local): skipped, nothing was sent to it");
            }
            RemoteShell shell;
            try {
                shell = retrier.run(() -> shells.shell(host)).value();
            } catch (Retrier.Exhausted e) {
                return new Ended(HostOutcome.UNREACHABLE, e.getMessage());
            }
            Optional<RunControl.LockOwner> lock = control.lock();
            Optional<Ended> refused = lock.isPresent() ? lockRefusal(shell, lock.get()) : Optional.empty();
            if (refused.isPresent()) {
                return refused.get();
            }
            if (check) {
                return new Steps(shell, Map.of()).run();
            }
            // the lock goes before the host is said to be done: a run killed between the two leaves a host the journal
            // does not call done (resumed: run again, its steps find their work done), never a done host still locked
            try {
                return preflightThenSteps(shell);
            } finally {
                lock.ifPresent(owner -> release(shell, owner));
            }
        }

        /** The one place a step's context is made: the forecast's (check mode, a scratch state) and the steps'. */
        private StepContext context(
                RemoteShell shell,
                GateTarget.Connect redis,
                GateTarget.Primaries primaries,
                boolean check,
                HostState state,
                StepContext.Listeners listeners) {
            return new StepContext(
                    ports,
                    host,
                    shell,
                    redis,
                    state,
                    new StepContext.Run(check, runStamp, POLL_INTERVAL),
                    new StepContext.Peers(primaries, sentinels, controls),
                    listeners);
        }

        /** Apply takes the host's lock; check mode reads it and forecasts the refusal. Empty: the host goes on. */
        private Optional<Ended> lockRefusal(RemoteShell shell, RunControl.LockOwner owner) throws InterruptedException {
            try {
                return retrier.run(() -> check
                                ? HostLock.peek(shell, owner, ports.clock().instant())
                                        .map(held -> "apply would be refused: " + held)
                                : HostLock.acquire(shell, owner, ports.clock().instant()))
                        .value()
                        .map(reason -> new Ended(HostOutcome.FAILED, reason));
            } catch (Retrier.Exhausted e) {
                return Optional.of(Ended.failed(e.error(), e.getMessage()));
            }
        }

        private static void release(RemoteShell shell, RunControl.LockOwner owner) {
            try {
                HostLock.release(shell, owner);
            } catch (RuntimeException e) {
                // The lock stays; the next run reports it (same run id: it is taken again).
            }
        }

        private Ended preflightThenSteps(RemoteShell shell) throws InterruptedException {
            Preflight.Forecast forecast = preflight(shell);
            Optional<Preflight.Refusal> refusal = forecast.refusal();
            if (refusal.isPresent()) {
                return new Ended(refusal.get().outcome(), refusal.get().reason());
            }
            Optional<String> stop = control.stopRequested();
            if (stop.isPresent()) {
                // a stop (SIGTERM) during the preflight: nothing is changed yet, so nothing is begun
                return new Ended(HostOutcome.UNTOUCHED, "stopped before any change (" + stop.get() + ")");
            }
            return new Steps(shell, forecast.reads()).run();
        }

        /**
         * Apply: the host's steps forecast in check mode before the first of them runs ({@link Preflight}); a host
         * refused there is not touched. It only reads, so it is tried again as a whole after a transient failure.
         */
        private Preflight.Forecast preflight(RemoteShell shell) throws InterruptedException {
            try {
                // a new copy of the state for each attempt: nothing of a forecast cut short is kept
                return retrier.run(() -> Preflight.check(
                                context(
                                        shell,
                                        connect(host),
                                        primaries,
                                        true,
                                        Preflight.scratch(state, play),
                                        StepContext.Listeners.NONE),
                                steps))
                        .value();
            } catch (Retrier.Exhausted e) {
                StepResult why = StepFailures.of(e.error(), e.attempts());
                HostOutcome outcome =
                        why.status() == StepStatus.UNREACHABLE ? HostOutcome.UNREACHABLE : HostOutcome.FAILED;
                return Preflight.Forecast.refused(
                        new Preflight.Refusal(outcome, "preflight, before any change: " + why.message()));
            }
        }

        /** The play's steps on this host, in order, until one stops the host. */
        private final class Steps {
            private final SendLog sendLog = new SendLog();
            private final ShellProgress answers;
            private final StepContext ctx;
            /** What the forecast's reading steps found, taken while this run has changed nothing ({@link Preflight}). */
            private final Map<Integer, StepResult> forecastReads;
            /** The step in progress, for the waits and the progress it announces. */
            private volatile String current = "";
            /** Whether a step of this run changed the host: the forecast's reads are then out of date. */
            private boolean changed;

            Steps(RemoteShell shell, Map<Integer, StepResult> forecastReads) {
                this.forecastReads = forecastReads;
                Progress.Listener progress =
                        p -> listener.on(new Progressed(ports.clock().instant(), play, host.name(), current, p));
                this.answers = new ShellProgress(progress);
                this.ctx = context(
                        answers.shell(sendLog.shell(shell)),
                        sendLog.redis(connect(host)),
                        sendLog.primaries(primaries),
                        check,
                        state,
                        new StepContext.Listeners(
                                wait -> listener.on(
                                        new Waiting(ports.clock().instant(), play, host.name(), current, wait)),
                                progress));
            }

            Ended run() throws InterruptedException {
                for (PlannedStep planned : steps) {
                    Optional<Ended> stopped = step(planned);
                    if (stopped.isPresent()) {
                        return stopped.get();
                    }
                }
                return new Ended(HostOutcome.DONE, "");
            }

            /** Runs one step and reports it; what ends the host's run when the step stops it. */
            private Optional<Ended> step(PlannedStep planned) throws InterruptedException {
                String name = planned.step().name();
                current = name;
                answers.reset();
                Instant start = ports.clock().instant();
                listener.on(new StepStarted(
                        start,
                        play,
                        host.name(),
                        planned.index(),
                        name,
                        planned.step().type()));
                Retrier.Attempted<StepResult> done = outcome(planned);
                StepResult result = done.value();
                state.learn(result.facts());
                state.predict(result.predicted());
                if (result.status() == StepStatus.CHANGED) {
                    state.markChanged();
                    changed = true;
                }
                if (!check) {
                    state.services().after(planned.step().type(), result.status());
                }
                report(planned, start, done);
                if (!result.status().stopsHost()) {
                    return Optional.empty();
                }
                HostOutcome outcome =
                        result.status() == StepStatus.UNREACHABLE ? HostOutcome.UNREACHABLE : HostOutcome.FAILED;
                return Optional.of(new Ended(outcome, name + ": " + result.message()));
            }

            /** The step's result and how many attempts it took: journaled, skipped by its condition, or run. */
            private Retrier.Attempted<StepResult> outcome(PlannedStep planned) throws InterruptedException {
                String name = planned.step().name();
                FactCondition.Outcome when =
                        planned.when().map(c -> c.evaluate(state.facts())).orElse(new FactCondition.Outcome(true, ""));
                Optional<JournaledBenchmark> journaled = check
                        ? Optional.empty()
                        : control.journaledBefore(
                                play,
                                host.name(),
                                planned.index(),
                                name,
                                planned.step().type());
                // The journaled side was measured when its condition held; the run may since have changed the very
                // fact the condition reads (thp.enabled != never), so the condition is not asked again.
                if (journaled.isPresent()) {
                    return new Retrier.Attempted<>(journaled.get().asResult(), 1);
                }
                if (!when.holds()) {
                    return new Retrier.Attempted<>(
                            StepResult.skipped("when: " + planned.when().orElseThrow() + " — " + when.detail()), 1);
                }
                if (!changed && forecastReads.containsKey(planned.index())) {
                    // read seconds ago by the preflight, and nothing changed since: the host is not asked again
                    return new Retrier.Attempted<>(forecastReads.get(planned.index()), 1);
                }
                try {
                    return retrier.run(
                            () -> {
                                sendLog.reset();
                                return planned.handler().run(ctx);
                            },
                            sendLog::nothingSent);
                } catch (Retrier.Exhausted e) {
                    return new Retrier.Attempted<>(StepFailures.of(e.error(), e.attempts()), e.attempts());
                } catch (Error e) {
                    // a stack or heap exhausted (or a library gone wrong) in this step: this host fails, the run goes
                    // on
                    return new Retrier.Attempted<>(StepResult.failed(Crash.describe(e)), 1);
                }
            }

            private void report(PlannedStep planned, Instant start, Retrier.Attempted<StepResult> done) {
                Step step = planned.step();
                StepResult result = done.value();
                Instant end = ports.clock().instant();
                listener.on(new StepFinished(
                        end,
                        play,
                        host.name(),
                        planned.index(),
                        step.name(),
                        step.type(),
                        result,
                        Duration.between(start, end),
                        done.attempts()));
                for (GateResult gate : result.gates()) {
                    listener.on(new GateChecked(end, play, host.name(), gate));
                }
                for (BenchRun run : result.benchmarks()) {
                    listener.on(new BenchmarkFinished(end, play, host.name(), planned.index(), step.name(), run));
                }
            }
        }
    }
}
