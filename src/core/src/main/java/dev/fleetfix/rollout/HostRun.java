package dev.fleetfix.rollout;

import dev.fleetfix.Crash;
import dev.fleetfix.Progress;
import dev.fleetfix.bench.plan.BenchRun;
import dev.fleetfix.health.GateResult;
import dev.fleetfix.health.GateTarget;
import dev.fleetfix.health.WaitListener;
import dev.fleetfix.inventory.Connection;
import dev.fleetfix.inventory.Host;
import dev.fleetfix.redis.topology.Sentinels;
import dev.fleetfix.rollout.RunPlan.PlannedStep;
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
import dev.fleetfix.steps.FactCondition;
import dev.fleetfix.steps.StepFailure;
import dev.fleetfix.steps.model.HostState;
import dev.fleetfix.steps.model.RunPorts;
import dev.fleetfix.steps.model.StepContext;
import dev.fleetfix.steps.model.StepResult;
import dev.fleetfix.steps.model.StepStatus;
import dev.fleetfix.transport.RemoteShell;
import dev.fleetfix.transport.ShellPool;
import dev.fleetfix.transport.TransportException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * Runs one play's steps on one host, in order, stopping at the first failure; emits its events. One HostRun serves a
 * whole run: it opens each host's shell once, through the run's {@link RunPorts}, and closes them all when the run
 * ends.
 */
final class HostRun implements AutoCloseable {
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
    HostRun(
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

    HostOutcome run(String play, Host host, List<PlannedStep> steps, HostState state) throws InterruptedException {
        return run(play, host, steps, state, List.of());
    }

    /** @param controls unchanged hosts of later batches, for benchmarks that measure controls */
    HostOutcome run(String play, Host host, List<PlannedStep> steps, HostState state, List<Host> controls)
            throws InterruptedException {
        Instant start = ports.clock().instant();
        state.startPlay(play);
        listener.on(new HostStarted(start, play, host.name()));
        if (host.connection() == Connection.UNSUPPORTED) {
            // Ansible lists a winrm or docker host too, and fails it when a play reaches it; nothing is sent to it
            return finish(
                    play,
                    host,
                    state,
                    start,
                    HostOutcome.UNREACHABLE,
                    "ansible_connection " + host.vars().get("ansible_connection")
                            + " is not a connection fleetfix has (ssh or local): skipped, nothing was sent to it");
        }
        RemoteShell shell;
        try {
            shell = retrier.run(() -> shells.shell(host)).value();
        } catch (Retrier.Exhausted e) {
            return finish(play, host, state, start, HostOutcome.UNREACHABLE, e.getMessage());
        }
        Optional<RunControl.LockOwner> lock = control.lock();
        if (lock.isPresent() && check) {
            Optional<String> held;
            try {
                held = retrier.run(() ->
                                HostLock.peek(shell, lock.get(), ports.clock().instant()))
                        .value();
            } catch (Retrier.Exhausted e) {
                HostOutcome outcome = sent(e.error()) ? HostOutcome.FAILED : HostOutcome.UNREACHABLE;
                return finish(play, host, state, start, outcome, e.getMessage());
            }
            if (held.isPresent()) {
                return finish(play, host, state, start, HostOutcome.FAILED, "apply would be refused: " + held.get());
            }
            Ended ended = runSteps(play, host, steps, state, shell, controls);
            return finish(play, host, state, start, ended.outcome(), ended.reason());
        }
        if (lock.isPresent()) {
            Optional<String> refused;
            try {
                refused = retrier.run(() -> HostLock.acquire(
                                shell, lock.get(), ports.clock().instant()))
                        .value();
            } catch (Retrier.Exhausted e) {
                HostOutcome outcome = sent(e.error()) ? HostOutcome.FAILED : HostOutcome.UNREACHABLE;
                return finish(play, host, state, start, outcome, e.getMessage());
            }
            if (refused.isPresent()) {
                return finish(play, host, state, start, HostOutcome.FAILED, refused.get());
            }
        }
        // the lock goes before the host is said to be done: a run killed between the two leaves a host the journal
        // does not call done (resumed: run again, its steps find their work done), never a done host still locked
        Ended ended;
        try {
            Optional<Preflight.Refusal> refusal =
                    check ? Optional.empty() : preflight(play, host, steps, state, shell, controls);
            Optional<String> stop = control.stopRequested();
            if (refusal.isPresent()) {
                ended = new Ended(refusal.get().outcome(), refusal.get().reason());
            } else if (stop.isPresent() && !check) {
                // a stop (SIGTERM) during the preflight: nothing is changed yet, so nothing is begun
                ended = new Ended(HostOutcome.UNTOUCHED, "stopped before any change (" + stop.get() + ")");
            } else {
                ended = runSteps(play, host, steps, state, shell, controls);
            }
        } finally {
            lock.ifPresent(owner -> {
                try {
                    HostLock.release(shell, owner);
                } catch (RuntimeException e) {
                    // The lock stays; the next run reports it (same run id: it is taken again).
                }
            });
        }
        return finish(play, host, state, start, ended.outcome(), ended.reason());
    }

    /** The host's Redis, opened when a step asks. */
    private GateTarget.Connect connect(Host host) {
        return timeout -> ports.redis().connect(host, timeout);
    }

    /** How a host's steps ended, said by {@link #finish} once the host's lock is released. */
    private record Ended(HostOutcome outcome, String reason) {}

    /**
     * Apply: the host's steps forecast in check mode before the first of them runs ({@link Preflight}); a host
     * refused there is not touched. It only reads, so it is tried again as a whole after a transient failure.
     */
    private Optional<Preflight.Refusal> preflight(
            String play, Host host, List<PlannedStep> steps, HostState state, RemoteShell shell, List<Host> controls)
            throws InterruptedException {
        try {
            // a new copy of the state for each attempt: nothing of a forecast cut short is kept
            return retrier.run(() -> Preflight.check(
                            new StepContext(
                                    ports,
                                    host,
                                    shell,
                                    connect(host),
                                    primaries,
                                    sentinels,
                                    true,
                                    Preflight.scratch(state, play),
                                    runStamp,
                                    POLL_INTERVAL,
                                    WaitListener.none(),
                                    controls,
                                    Progress.Listener.none()),
                            steps))
                    .value();
        } catch (Retrier.Exhausted e) {
            StepResult why = failure(e.error(), e.attempts());
            HostOutcome outcome = why.status() == StepStatus.UNREACHABLE ? HostOutcome.UNREACHABLE : HostOutcome.FAILED;
            return Optional.of(new Preflight.Refusal(outcome, "preflight, before any change: " + why.message()));
        }
    }

    private Ended runSteps(
            String play, Host host, List<PlannedStep> steps, HostState state, RemoteShell shell, List<Host> controls)
            throws InterruptedException {
        SendLog sendLog = new SendLog();
        // the step in progress, for the waits it announces
        String[] current = {""};
        Progress.Listener progress =
                p -> listener.on(new Progressed(ports.clock().instant(), play, host.name(), current[0], p));
        ShellProgress answers = new ShellProgress(progress);
        StepContext ctx = new StepContext(
                ports,
                host,
                answers.shell(sendLog.shell(shell)),
                sendLog.redis(connect(host)),
                sendLog.primaries(primaries),
                sentinels,
                check,
                state,
                runStamp,
                POLL_INTERVAL,
                wait -> listener.on(new Waiting(ports.clock().instant(), play, host.name(), current[0], wait)),
                controls,
                progress);
        for (PlannedStep planned : steps) {
            int index = planned.index();
            String name = planned.step().name();
            current[0] = name;
            answers.reset();
            String type = planned.step().type();
            Instant stepStart = ports.clock().instant();
            listener.on(new StepStarted(stepStart, play, host.name(), index, name, type));
            StepResult result;
            int attempts = 1;
            FactCondition.Outcome when =
                    planned.when().map(c -> c.evaluate(state.facts())).orElse(new FactCondition.Outcome(true, ""));
            Optional<JournaledBenchmark> journaled =
                    check ? Optional.empty() : control.journaledBefore(play, host.name(), index, name, type);
            // The journaled side was measured when its condition held; the run may since have changed the very
            // fact the condition reads (thp.enabled != never), so the condition is not asked again.
            if (journaled.isPresent()) {
                result = journaled.get().asResult();
            } else if (!when.holds()) {
                result = StepResult.skipped("when: " + planned.when().orElseThrow() + " — " + when.detail());
            } else {
                try {
                    Retrier.Attempted<StepResult> done = retrier.run(
                            () -> {
                                sendLog.reset();
                                return planned.handler().run(ctx);
                            },
                            sendLog::nothingSent);
                    result = done.value();
                    attempts = done.attempts();
                } catch (Retrier.Exhausted e) {
                    attempts = e.attempts();
                    result = failure(e.error(), attempts);
                } catch (Error e) {
                    // a stack or heap exhausted (or a library gone wrong) in this step: this host fails, the run goes
                    // on
                    result = StepResult.failed(Crash.describe(e));
                }
            }
            state.learn(result.facts());
            state.predict(result.predicted());
            if (result.status() == StepStatus.CHANGED) {
                state.markChanged();
            }
            Instant end = ports.clock().instant();
            listener.on(new StepFinished(
                    end, play, host.name(), index, name, type, result, Duration.between(stepStart, end), attempts));
            for (GateResult gate : result.gates()) {
                listener.on(new GateChecked(end, play, host.name(), gate));
            }
            for (BenchRun run : result.benchmarks()) {
                listener.on(new BenchmarkFinished(end, play, host.name(), index, name, run));
            }
            if (result.status().stopsHost()) {
                HostOutcome outcome =
                        result.status() == StepStatus.UNREACHABLE ? HostOutcome.UNREACHABLE : HostOutcome.FAILED;
                return new Ended(outcome, name + ": " + result.message());
            }
        }
        return new Ended(HostOutcome.DONE, "");
    }

    /**
     * A step that could not connect, or whose connection was lost before its command was sent, leaves the host
     * unreachable. A command that was sent reached the host: whether it then timed out or its connection broke (the
     * network, the connection holder killed), it may have run, so the step failed and the host is not unreachable.
     */
    private static StepResult failure(RuntimeException e, int attempts) {
        String suffix = attempts > 1 ? " (after " + attempts + " attempts)" : "";
        if (e instanceof TransportException t && t.sent()) {
            return StepResult.failed(
                    t.kind() == TransportException.Kind.TIMEOUT
                            ? e.getMessage() + " (not sent again: it may have run)"
                            : e.getMessage() + " (the connection broke after the command was sent; it may have run;"
                                    + " not sent again)");
        }
        if (e instanceof TransportException t && t.kind() != TransportException.Kind.BECOME) {
            return StepResult.unreachable(e.getMessage() + suffix);
        }
        if (e instanceof StepFailure) {
            return StepResult.failed(e.getMessage());
        }
        String message = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
        return StepResult.failed(message + suffix);
    }

    /**
     * A command reached the host (it then timed out, or its connection broke), or sudo refused its become password:
     * the host is not unreachable.
     */
    private static boolean sent(RuntimeException e) {
        return e instanceof TransportException t && (t.sent() || t.kind() == TransportException.Kind.BECOME);
    }

    private HostOutcome finish(
            String play, Host host, HostState state, Instant start, HostOutcome outcome, String reason) {
        Instant end = ports.clock().instant();
        listener.on(
                new HostFinished(end, play, host.name(), outcome, reason, Duration.between(start, end), state.facts()));
        return outcome;
    }
}
