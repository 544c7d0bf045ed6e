package dev.fleetfix.rollout;

import dev.fleetfix.Counts;
import dev.fleetfix.Crash;
import dev.fleetfix.Forks;
import dev.fleetfix.health.GateTarget;
import dev.fleetfix.inventory.Host;
import dev.fleetfix.playbook.Step;
import dev.fleetfix.redis.topology.Sentinels;
import dev.fleetfix.rollout.event.BatchStarted;
import dev.fleetfix.rollout.event.HostFinished;
import dev.fleetfix.rollout.event.HostOutcome;
import dev.fleetfix.rollout.event.PlayHalted;
import dev.fleetfix.rollout.event.PlayStarted;
import dev.fleetfix.rollout.event.RunEnded;
import dev.fleetfix.rollout.event.RunEvent;
import dev.fleetfix.rollout.event.RunListener;
import dev.fleetfix.rollout.event.RunOutcome;
import dev.fleetfix.rollout.event.RunStarted;
import dev.fleetfix.rollout.event.RunSummary;
import dev.fleetfix.rollout.event.StepFinished;
import dev.fleetfix.rollout.event.WindowClosed;
import dev.fleetfix.rollout.host.HostRun;
import dev.fleetfix.rollout.host.Retrier;
import dev.fleetfix.rollout.journal.RunControl;
import dev.fleetfix.rollout.journal.RunId;
import dev.fleetfix.rollout.plan.ChangeWindow;
import dev.fleetfix.rollout.plan.Machines;
import dev.fleetfix.rollout.plan.RunOptions;
import dev.fleetfix.rollout.plan.RunPlan;
import dev.fleetfix.rollout.plan.RunPlan.PlannedPlay;
import dev.fleetfix.steps.model.HostState;
import dev.fleetfix.steps.model.RunPorts;
import dev.fleetfix.steps.model.StepStatus;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Runs a {@link RunPlan}: play after play, batch after batch, the hosts of a batch in parallel
 * (bounded by forks). The next batch starts only when every host of this one is done, which
 * includes passing its {@code wait_healthy} gates. Stops starting hosts when a batch fails more than
 * max_fail_percentage, when the circuit breaker opens, or when the change window closes; hosts in
 * flight always finish. Reports everything as {@link RunEvent}s and formats nothing.
 */
public final class PlaybookRunner {
    private final RunPorts ports;
    private final GateTarget.Primaries primaries;
    private final Sentinels sentinels;
    private final RolloutPolicy policy;
    private final RunControl control;

    /**
     * @param ports the root's ports, handed on to every step unchanged
     * @param primaries opens a replica's primary, when it is in the inventory
     * @param sentinels the inventory's Sentinels
     * @param policy retries and the circuit breaker
     * @param control host locks, a resume set and a stop flag ({@link RunControl#none()}: none of them)
     */
    public PlaybookRunner(
            RunPorts ports,
            GateTarget.Primaries primaries,
            Sentinels sentinels,
            RolloutPolicy policy,
            RunControl control) {
        this.ports = ports;
        this.primaries = primaries;
        this.sentinels = sentinels;
        this.policy = policy;
        this.control = control;
    }

    public RunSummary run(RunPlan plan, RunListener listener) throws InterruptedException {
        RunListener events = serialized(listener);
        Run run = new Run(plan, events);
        return run.execute();
    }

    private static RunListener serialized(RunListener listener) {
        Object lock = new Object();
        return event -> {
            synchronized (lock) {
                listener.on(event);
            }
        };
    }

    /** The state of one run. */
    private final class Run {
        private final RunPlan plan;
        private final RunListener events;
        private final Instant start;
        private final Map<String, HostOutcome> outcomes = new LinkedHashMap<>();
        private final Set<String> changed = new LinkedHashSet<>();
        private final Map<String, HostState> states = new LinkedHashMap<>();
        private final FailurePolicy failures;

        Run(RunPlan plan, RunListener listener) {
            this.plan = plan;
            this.start = ports.clock().instant();
            this.failures = new FailurePolicy(policy.breaker());
            this.events = event -> {
                if (event instanceof StepFinished f && f.result().status() == StepStatus.CHANGED) {
                    synchronized (changed) {
                        changed.add(f.host());
                    }
                }
                listener.on(event);
            };
            Map<String, HostState.Machine> machines = new HashMap<>();
            plan.plays().stream().filter(p -> !p.emptiedByTags()).forEach(p -> p.hosts()
                    .forEach(h -> {
                        outcomes.put(h.name(), HostOutcome.UNTOUCHED);
                        states.computeIfAbsent(
                                h.name(),
                                n -> new HostState(
                                        machines.computeIfAbsent(Machines.of(h), m -> new HostState.Machine())));
                    }));
        }

        RunSummary execute() throws InterruptedException {
            // The caller's id when it made one (its journal and locks carry it): one id per run.
            String stamp = control.runId().orElseGet(() -> RunId.next(start));
            RunOptions options = plan.options();
            events.on(new RunStarted(
                    start,
                    stamp,
                    plan.playbook().source(),
                    options.check(),
                    options.diff(),
                    options.forks(),
                    plan.hostNames(),
                    options.tags()));
            Optional<PlannedPlay> closedNow = plan.plays().stream()
                    .filter(p -> !p.emptiedByTags())
                    .filter(p -> p.window().isPresent() && !isOpen(p.window().get()))
                    .findFirst();
            if (closedNow.isPresent() && !options.check()) {
                return refusedOutsideWindow(closedNow.get(), "no host touched");
            }
            try (HostRun hostRun = new HostRun(
                    ports,
                    primaries,
                    sentinels,
                    new Retrier(policy.retry(), ports.sleeper()),
                    control,
                    events,
                    stamp,
                    options.check())) {
                return runPlays(hostRun, closedNow);
            }
        }

        /** The plays, and the run's end; the host runs' shells close after it. */
        private RunSummary runPlays(HostRun hostRun, Optional<PlannedPlay> closedNow) throws InterruptedException {
            try {
                for (PlannedPlay play : plan.plays()) {
                    Optional<RunSummary> stopped = runPlay(play, hostRun);
                    if (stopped.isPresent()) {
                        return stopped.get();
                    }
                }
            } catch (RuntimeException | Error e) {
                // a bug outside any host's run: the run still ends, so its recap, reports and journal
                // say how far it got, and then the error is reported as the bug it is
                end(RunOutcome.HALTED, Crash.describe(e));
                throw e;
            }
            if (closedNow.isPresent()) {
                // Check mode forecasts the run as it would go inside the window; now it would be refused.
                return refusedOutsideWindow(
                        closedNow.get(), "apply now would touch no host; the forecast is for a run inside the window");
            }
            boolean anyFailed = outcomes.values().stream().anyMatch(HostOutcome::failed);
            return end(anyFailed ? RunOutcome.HOSTS_FAILED : RunOutcome.OK, anyFailed ? "some hosts failed" : "");
        }

        private RunSummary refusedOutsideWindow(PlannedPlay play, String consequence) {
            ChangeWindow w = play.window().orElseThrow();
            String local = w.localTime(ports.clock().instant(), ports.clock().getZone());
            events.on(new WindowClosed(
                    ports.clock().instant(), play.play().name(), w.text(), local, true, plan.hostNames()));
            return end(
                    RunOutcome.REFUSED_OUTSIDE_WINDOW,
                    "outside the change window " + w.text() + " (now " + local + "): " + consequence);
        }

        private Optional<RunSummary> runPlay(PlannedPlay play, HostRun hostRun) throws InterruptedException {
            String name = play.play().name();
            List<List<Host>> batches = play.batches().batches();
            events.on(new PlayStarted(
                    ports.clock().instant(),
                    name,
                    batches.stream()
                            .map(b -> b.stream().map(Host::name).toList())
                            .toList(),
                    play.play().maxFailPercentage(),
                    play.window().map(ChangeWindow::text),
                    play.batches().notes(),
                    play.leftOutByTags().stream().map(Step::name).toList(),
                    play.emptiedByTags()));
            if (play.emptiedByTags()) {
                // nothing to run: no host is contacted, locked or journaled for this play
                return Optional.empty();
            }
            for (int i = 0; i < batches.size(); i++) {
                List<Host> batch = batches.get(i);
                if (control.stopRequested().isPresent()) {
                    return Optional.of(stopped(name));
                }
                if (windowClosed(play)) {
                    return Optional.of(closeWindow(play));
                }
                events.on(new BatchStarted(
                        ports.clock().instant(),
                        name,
                        i + 1,
                        batches.size(),
                        batch.stream().map(Host::name).toList()));
                List<HostOutcome> results =
                        runBatch(name, play, batch, hostRun, controls(name, batches.subList(i + 1, batches.size())));
                boolean skippedForWindow = record(batch, results);
                if (control.stopRequested().isPresent()) {
                    return Optional.of(stopped(name));
                }
                Optional<String> halt =
                        failures.haltAfter(i + 1, results, play.play().maxFailPercentage());
                if (halt.isPresent()) {
                    return Optional.of(halt(name, halt.get()));
                }
                if (skippedForWindow) {
                    return Optional.of(closeWindow(play));
                }
            }
            return Optional.empty();
        }

        /** Runs one batch's hosts, at most forks at a time; a host's outcome per host, in batch order. */
        private List<HostOutcome> runBatch(
                String name, PlannedPlay play, List<Host> batch, HostRun hostRun, List<Host> controls)
                throws InterruptedException {
            List<Forks.Outcome<Host, HostOutcome>> ran =
                    Forks.runInterruptibly(batch, plan.options().forks(), host -> {
                        if (control.doneBefore(name, host.name())) {
                            events.on(new HostFinished(
                                    ports.clock().instant(),
                                    name,
                                    host.name(),
                                    HostOutcome.DONE,
                                    "done in the run being resumed",
                                    Duration.ZERO,
                                    Map.of()));
                            return HostOutcome.DONE;
                        }
                        if (control.stopRequested().isPresent() || windowClosed(play) || failures.breakerOpen()) {
                            return HostOutcome.UNTOUCHED;
                        }
                        try {
                            return hostRun.run(
                                    name, host, play.stepsByHost().get(host.name()), states.get(host.name()), controls);
                        } catch (RuntimeException | Error e) {
                            // one host's crash, whatever threw it, is that host's failure: the others
                            // go on, and the run still ends with its recap, reports and journal
                            events.on(new HostFinished(
                                    ports.clock().instant(),
                                    name,
                                    host.name(),
                                    HostOutcome.FAILED,
                                    Crash.describe(e),
                                    Duration.ZERO,
                                    Map.of()));
                            return HostOutcome.FAILED;
                        }
                    });
            List<HostOutcome> results = new ArrayList<>();
            for (Forks.Outcome<Host, HostOutcome> o : ran) {
                if (o.error().isPresent()) {
                    // not reached: the task above turns whatever a host run throws into that host's failure
                    throw o.error().get();
                }
                results.add(o.value().orElseThrow());
            }
            return results;
        }

        /**
         * Hosts of later batches that no step has touched yet (a resumed run's done hosts are changed already):
         * controls for benchmarks that measure drift beside the change.
         */
        private List<Host> controls(String play, List<List<Host>> laterBatches) {
            List<Host> controls = new ArrayList<>();
            for (List<Host> later : laterBatches) {
                later.stream()
                        .filter(h ->
                                !control.doneBefore(play, h.name()) && outcomes.get(h.name()) == HostOutcome.UNTOUCHED)
                        .forEach(controls::add);
            }
            return controls;
        }

        /** Records a batch's outcomes, and counts them for the failure policy; whether a host was left untouched. */
        private boolean record(List<Host> batch, List<HostOutcome> results) {
            boolean untouched = false;
            for (int h = 0; h < batch.size(); h++) {
                HostOutcome outcome = results.get(h);
                String host = batch.get(h).name();
                record(host, outcome);
                failures.count(host, outcome);
                untouched |= outcome == HostOutcome.UNTOUCHED;
            }
            return untouched;
        }

        private void record(String host, HostOutcome outcome) {
            HostOutcome before = outcomes.get(host);
            if (before == null || !before.failed()) {
                outcomes.put(host, outcome == HostOutcome.UNTOUCHED && before != null ? before : outcome);
            }
        }

        private boolean isOpen(ChangeWindow window) {
            return window.isOpen(ports.clock().instant(), ports.clock().getZone());
        }

        private boolean windowClosed(PlannedPlay play) {
            return !plan.options().check()
                    && play.window().isPresent()
                    && !isOpen(play.window().get());
        }

        private RunSummary closeWindow(PlannedPlay play) {
            ChangeWindow w = play.window().orElseThrow();
            String local = w.localTime(ports.clock().instant(), ports.clock().getZone());
            events.on(
                    new WindowClosed(ports.clock().instant(), play.play().name(), w.text(), local, false, untouched()));
            return end(
                    RunOutcome.WINDOW_CLOSED,
                    "the change window " + w.text() + " closed at " + local + "; "
                            + Counts.of(untouched().size(), "host") + " left for the next window");
        }

        private RunSummary stopped(String play) {
            return halt(
                    play,
                    "stopped (" + control.stopRequested().orElse("?")
                            + "): hosts in flight finished their steps, no new host started");
        }

        private RunSummary halt(String play, String reason) {
            events.on(new PlayHalted(ports.clock().instant(), play, reason, done(), failed(), untouched()));
            return end(RunOutcome.HALTED, reason);
        }

        private List<String> done() {
            return names(o -> o == HostOutcome.DONE);
        }

        private List<String> failed() {
            return names(HostOutcome::failed);
        }

        private List<String> untouched() {
            return names(o -> o == HostOutcome.UNTOUCHED);
        }

        private List<String> names(java.util.function.Predicate<HostOutcome> which) {
            return outcomes.entrySet().stream()
                    .filter(e -> which.test(e.getValue()))
                    .map(Map.Entry::getKey)
                    .toList();
        }

        private RunSummary end(RunOutcome outcome, String reason) {
            Instant now = ports.clock().instant();
            List<String> changedHosts;
            synchronized (changed) {
                changedHosts =
                        plan.hostNames().stream().filter(changed::contains).toList();
            }
            RunSummary summary = new RunSummary(
                    outcome,
                    reason,
                    done(),
                    failed(),
                    untouched(),
                    plan.options().check() && !changedHosts.isEmpty(),
                    changedHosts,
                    Duration.between(start, now));
            events.on(new RunEnded(now, summary));
            return summary;
        }
    }
}
