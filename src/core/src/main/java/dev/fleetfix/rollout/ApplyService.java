package dev.fleetfix.rollout;

import dev.fleetfix.InputException;
import dev.fleetfix.health.GateTarget;
import dev.fleetfix.inventory.Host;
import dev.fleetfix.inventory.HostPattern;
import dev.fleetfix.inventory.Inventory;
import dev.fleetfix.playbook.Playbook;
import dev.fleetfix.playbook.PlaybookParser;
import dev.fleetfix.redis.RedisConnector;
import dev.fleetfix.redis.topology.RedisDiscovery;
import dev.fleetfix.redis.topology.Sentinels;
import dev.fleetfix.rollout.event.RunListener;
import dev.fleetfix.rollout.event.RunSummary;
import dev.fleetfix.rollout.journal.RunControl;
import dev.fleetfix.rollout.journal.RunId;
import dev.fleetfix.rollout.journal.RunInputs;
import dev.fleetfix.rollout.journal.RunJournal;
import dev.fleetfix.rollout.plan.HostOrdering;
import dev.fleetfix.rollout.plan.HostSelector;
import dev.fleetfix.rollout.plan.RunPlan;
import dev.fleetfix.rollout.plan.RunPlanner;
import dev.fleetfix.rollout.plan.StartAtTask;
import dev.fleetfix.rollout.plan.TaskListing;
import dev.fleetfix.rollout.plan.TopologyOrdering;
import dev.fleetfix.steps.StepRegistry;
import dev.fleetfix.steps.model.RunPorts;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.stream.Collectors;

/**
 * {@code fleetfix apply} as a service: read the playbook, plan it against the inventory (every
 * input error surfaces here, before any connection), then run it.
 */
public final class ApplyService {
    private final StepRegistry steps;
    private final RunPorts ports;
    private final RolloutPolicy policy;
    private final Path runsHome;
    private final Consumer<String> warnings;

    /**
     * A service that runs through these ports.
     *
     * @param ports the composition root's, handed on to every step unchanged
     * @param runsHome where runs without a journal dir keep theirs, one directory per run
     * @param warnings receives what a playbook has that is accepted but doubted (a key written
     *     twice), one line each, when it is parsed: before any host is contacted
     */
    public ApplyService(
            StepRegistry steps, RunPorts ports, RolloutPolicy policy, Path runsHome, Consumer<String> warnings) {
        this.steps = Objects.requireNonNull(steps, "steps");
        this.ports = Objects.requireNonNull(ports, "ports");
        this.policy = Objects.requireNonNull(policy, "policy");
        this.runsHome = Objects.requireNonNull(runsHome, "runsHome");
        this.warnings = Objects.requireNonNull(warnings, "warnings");
    }

    /**
     * Plans the request as {@link #apply} would run it, replicas first (reading each restarting
     * play's replication from Redis), and contacts no host otherwise. {@code --list-hosts} and
     * {@code --syntax-check} plan with {@link #planFromFiles(ApplyRequest)}, which reads files only.
     *
     * @throws dev.fleetfix.InputException for any mistake in the playbook, its variables or options
     */
    public RunPlan plan(ApplyRequest request) {
        HostOrdering ordering = new TopologyOrdering(new RedisDiscovery(
                request.selection().inventory(),
                ports.redis(),
                request.options().redisTimeout(),
                request.options().forks()));
        return plan(request, ordering, true);
    }

    /**
     * The plays' steps that the request's tags select, and their tags: {@code --list-tasks} and {@code
     * --list-tags}. It reads the playbook and contacts nothing: no host, no Redis.
     *
     * @throws dev.fleetfix.InputException for a mistake in the playbook
     */
    public TaskListing listing(ApplyRequest request) {
        Playbook written = new PlaybookParser(steps).parse(request.playbook());
        written.warnings().forEach(warnings);
        Playbook playbook = request.options()
                .startAtTask()
                .map(name -> StartAtTask.from(written, name, request.options().tags()))
                .orElse(written);
        return TaskListing.of(request.playbook(), playbook, request.options().tags());
    }

    /**
     * Plans and runs one apply. Makes the run id, once: the host locks, the journal, the events, the
     * report and backup names all carry it. Without check mode it journals the run (in the resumed
     * run's dir, the request's journal dir, or {@code runsHome/RUN_ID}), takes host locks as this
     * process, skips what the resumed run finished, and stops starting hosts on a signal (hosts in
     * flight finish). Check mode writes nothing and takes no lock, but reads them: a host another run
     * holds would refuse apply.
     *
     * <p>{@code ending} is given the result before the run lets go of a signal: the JVM exits on
     * SIGTERM only after it returns, so what it prints (the journal, how to continue) is printed.
     *
     * @throws dev.fleetfix.InputException for a mistake in the playbook, its variables or options;
     *     no host is touched then, and a journal made for it is removed
     */
    public ApplyResult apply(ApplyRequest request, RunListener listener, Consumer<ApplyResult> ending)
            throws InterruptedException {
        String runId = RunId.next(ports.clock().instant());
        if (request.options().check()) {
            RunControl peek = new RunControl(
                    Optional.of(RunControl.LockOwner.thisProcess(
                            runId, request.options().lockStaleAfter(), Set.of())),
                    Set.of());
            RunPlan plan = plan(request);
            ApplyResult result = new ApplyResult(runId, run(request, plan, listener, peek), Optional.empty());
            ending.accept(result);
            return result;
        }
        Path dir = request.resume()
                .map(ApplyRequest.Resume::dir)
                .or(() -> request.options().journalDir())
                .orElseGet(() -> runsHome.resolve(runId));
        try (RunJournal journal = new RunJournal(dir)) {
            try {
                return journaled(request, runId, journal, listener, ending);
            } catch (InputException e) {
                journal.discardUnused();
                throw e;
            }
        }
    }

    /** Apply, journaled: the plan, then the invocation and its inputs in the journal, then the run. */
    private ApplyResult journaled(
            ApplyRequest request, String runId, RunJournal journal, RunListener listener, Consumer<ApplyResult> ending)
            throws InterruptedException {
        // a resume of a changed plan is refused before the plan reads any host's replication; a new run
        // reads its files after the plan, whose errors name file and line
        Optional<RunInputs> resumed = request.resume().map(r -> {
            RunInputs now = inputs(request);
            r.checkUnchanged(now)
                    .forEach(change ->
                            warnings.accept("--force: resuming although " + change + " since the run started"));
            return now;
        });
        RunPlan plan = plan(request);
        RunInputs inputs = resumed.orElseGet(() -> inputs(request));
        journal.invocation(
                runId,
                request.playbook(),
                request.selection().firstSource(),
                request.selection().limit(),
                request.shard(),
                request.options().tags());
        journal.inputs(inputs);
        Set<String> resumes = request.resume().map(r -> r.journal().runs()).orElse(Set.of());
        RunControl control = new RunControl(
                Optional.of(runId),
                Optional.of(RunControl.LockOwner.thisProcess(
                        runId, request.options().lockStaleAfter(), resumes)),
                request.resume().map(r -> r.journal().done()).orElse(Set.of()),
                request.resume().map(r -> r.journal().befores()).orElse(Map.of()));
        return stoppedBySignal(control, () -> {
            // the journal first: what the console says has ended is already in the journal when a kill
            // follows the line (a before benchmark printed but not journaled was measured again on resume)
            RunSummary summary = run(request, plan, RunListener.all(List.of(journal, listener)), control);
            ApplyResult result = new ApplyResult(runId, summary, Optional.of(journal.file()));
            ending.accept(result);
            return result;
        });
    }

    private static RunInputs inputs(ApplyRequest request) {
        return RunInputs.read(
                request.playbook(),
                request.selection()
                        .firstSource()
                        .or(() -> request.selection().inventory().source())
                        .map(Path::toString),
                request.options().extraVars());
    }

    /**
     * How an apply ended.
     *
     * @param runId the run's id
     * @param summary how the run ended
     * @param journal the journal file; empty in check mode
     */
    public record ApplyResult(String runId, RunSummary summary, Optional<Path> journal) {
        public ApplyResult {
            Objects.requireNonNull(runId, "runId");
            Objects.requireNonNull(summary, "summary");
            Objects.requireNonNull(journal, "journal");
        }

        /** The run's dir, to continue it with {@code --resume} when it did not end ok. */
        public Optional<Path> runDir() {
            return journal.map(Path::getParent);
        }
    }

    private RunSummary run(ApplyRequest request, RunPlan plan, RunListener listener, RunControl control)
            throws InterruptedException {
        Inventory inventory = request.selection().inventory();
        PlaybookRunner runner = new PlaybookRunner(
                ports, primaries(inventory, ports.redis()), Sentinels.of(inventory, ports.redis()), policy, control);
        return runner.run(plan, listener);
    }

    @FunctionalInterface
    private interface Run {
        ApplyResult call() throws InterruptedException;
    }

    /**
     * Runs with a shutdown hook that asks the run to stop (a signal, Ctrl-C) and holds the JVM until
     * the hosts in flight have finished and the run's ending is told, for up to 10 minutes.
     */
    private static ApplyResult stoppedBySignal(RunControl control, Run run) throws InterruptedException {
        CountDownLatch finished = new CountDownLatch(1);
        Thread hook = new Thread(
                () -> {
                    control.requestStop("interrupted by a signal");
                    try {
                        finished.await(10, TimeUnit.MINUTES);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                },
                "fleetfix-stop");
        Runtime.getRuntime().addShutdownHook(hook);
        try {
            return run.call();
        } finally {
            finished.countDown();
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException e) {
                // the JVM is shutting down: the hook is running and now returns
            }
        }
    }

    /**
     * Parses and plans in inventory order, reading files only: {@code --list-hosts} and {@code --syntax-check}.
     *
     * @throws dev.fleetfix.InputException for any mistake in the playbook, its variables or options
     */
    public RunPlan planFromFiles(ApplyRequest request) {
        return plan(request, HostOrdering.inventoryOrder(), false);
    }

    /**
     * Parses and plans: plays select from the inventory, narrowed to the selection's hosts. {@link
     * dev.fleetfix.rollout.plan.TopologyOrdering} reads each restarting play's replication (read-only) to put replicas
     * first and split batches.
     */
    private RunPlan plan(ApplyRequest request, HostOrdering ordering, boolean forRun) {
        Playbook playbook = new PlaybookParser(steps).parse(request.playbook());
        playbook.warnings().forEach(warnings);
        Inventory inventory = request.selection().inventory();
        Set<String> allowed =
                request.selection().hosts().stream().map(Host::name).collect(Collectors.toSet());
        HostSelector selector = pattern -> HostPattern.parse(pattern).select(inventory, warnings).stream()
                .filter(h -> allowed.contains(h.name()))
                .toList();
        return new RunPlanner(steps, ordering, forRun).plan(playbook, selector, request.options());
    }

    /** A replica's primary, found in the inventory by the address and port the replica reports. */
    static GateTarget.Primaries primaries(Inventory inventory, RedisConnector redis) {
        return (address, port, timeout) -> {
            Optional<Host> primary = inventory.hosts().stream()
                    // a host whose Redis settings could not be evaluated has none to match
                    .filter(h -> h.unusable().isEmpty())
                    .filter(h -> h.redis().port() == port)
                    .filter(h ->
                            h.redis().address().equals(address) || h.address().equals(address))
                    .findFirst();
            return primary.map(h -> redis.connect(h, timeout));
        };
    }
}
