package dev.fleetfix.fake;

import dev.fleetfix.bench.host.HostBenchmark;
import dev.fleetfix.health.GateTarget;
import dev.fleetfix.inventory.Host;
import dev.fleetfix.playbook.Playbook;
import dev.fleetfix.playbook.PlaybookParser;
import dev.fleetfix.rollout.PlaybookRunner;
import dev.fleetfix.rollout.RolloutPolicy;
import dev.fleetfix.rollout.event.RunEvent;
import dev.fleetfix.rollout.event.RunSummary;
import dev.fleetfix.rollout.event.StepFinished;
import dev.fleetfix.rollout.journal.RunControl;
import dev.fleetfix.rollout.plan.ChangeWindow;
import dev.fleetfix.rollout.plan.RunOptions;
import dev.fleetfix.rollout.plan.RunPlan;
import dev.fleetfix.rollout.plan.RunPlanner;
import dev.fleetfix.steps.BenchmarkStep;
import dev.fleetfix.steps.StepRegistry;
import dev.fleetfix.steps.facts.ShellFacts;
import dev.fleetfix.steps.model.RunPorts;
import dev.fleetfix.steps.model.StepResult;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Runs playbooks (as YAML text) on fake hosts with a test clock, and keeps every event. */
public final class Harness {
    public final Map<String, FakeHost> hosts = new LinkedHashMap<>();
    public final TestClock clock;
    public final List<RunEvent> events = Collections.synchronizedList(new ArrayList<>());
    private final Path dir;
    private RolloutPolicy policy = RolloutPolicy.of(3, Duration.ofSeconds(1));
    private Runnable onEachStep = () -> {};
    private GateTarget.Primaries primaries = GateTarget.Primaries.none();
    private RunControl control = RunControl.none();
    // Fake hosts have no Redis to load: their benchmark steps skip, saying so.
    private StepRegistry registry = StepRegistry.standard(new ShellFacts())
            .with(new BenchmarkStep((host, shell, controls, plan, progress) -> List.of(
                    new HostBenchmark.Outcome(host, List.of(), Optional.of("simulated host"), Optional.empty()))));

    public Harness(Path dir, String... names) {
        this(dir, Instant.parse("2026-11-28T01:30:00Z"), names);
    }

    public Harness(Path dir, Instant start, String... names) {
        this.dir = dir;
        this.clock = new TestClock(start);
        for (String name : names) {
            hosts.put(name, new FakeHost(name, dir));
        }
    }

    public FakeHost host(String name) {
        return hosts.get(name);
    }

    public Harness policy(RolloutPolicy p) {
        this.policy = p;
        return this;
    }

    /** Locks, resume set and stop flag for the next runs. */
    public Harness control(RunControl c) {
        this.control = c;
        return this;
    }

    /** How steps open another host's Redis by address and port (none by default). */
    /** The inventory's Sentinels, as the restart step sees them. */
    public Harness sentinels(dev.fleetfix.redis.topology.Sentinels s) {
        this.sentinels = s;
        return this;
    }

    private dev.fleetfix.redis.topology.Sentinels sentinels = dev.fleetfix.redis.topology.Sentinels.none();

    public Harness primaries(GateTarget.Primaries p) {
        this.primaries = p;
        return this;
    }

    /** Plans with these step types (the standard ones by default). */
    public Harness registry(StepRegistry r) {
        this.registry = r;
        return this;
    }

    /** Runs after every finished step (to move the clock mid-run, say). */
    public Harness onEachStep(Runnable r) {
        this.onEachStep = r;
        return this;
    }

    public RunPlan plan(String yaml, RunOptions options) {
        Playbook playbook = new PlaybookParser(registry).parse(dir.resolve("play.yaml"), yaml);
        List<Host> all = hosts.values().stream().map(FakeHost::host).toList();
        return new RunPlanner(registry)
                .plan(
                        playbook,
                        pattern -> pattern.equals("all") || pattern.equals("redis")
                                ? all
                                : all.stream()
                                        .filter(h -> h.name().equals(pattern))
                                        .toList(),
                        options);
    }

    /**
     * The options of {@link #run(String)} and {@link #check(String)}: one host at a time. The fake hosts share one
     * {@link TestClock}, and a host's fake wait moves it for every host: hosts running side by side would see each
     * other's waits pass their own deadlines, now and then, as a CI run saw in PlaybookRunnerTest. A test of hosts
     * side by side passes options of its own, and gives its waits room.
     */
    public static RunOptions sequential() {
        return RunOptions.defaults().withForks(1);
    }

    public RunSummary run(String yaml) throws InterruptedException {
        return run(yaml, sequential());
    }

    public RunSummary check(String yaml) throws InterruptedException {
        return run(yaml, sequential().withCheck(true));
    }

    /** Runs with one more listener (a journal, say). */
    public RunSummary runWith(String yaml, dev.fleetfix.rollout.event.RunListener also) throws InterruptedException {
        this.also = also;
        try {
            return run(yaml);
        } finally {
            this.also = event -> {};
        }
    }

    /** Runs in check mode with one more listener (a console reporter, say). */
    public RunSummary checkWith(String yaml, dev.fleetfix.rollout.event.RunListener also) throws InterruptedException {
        this.also = also;
        try {
            return check(yaml);
        } finally {
            this.also = event -> {};
        }
    }

    private dev.fleetfix.rollout.event.RunListener also = event -> {};

    public RunSummary run(String yaml, RunOptions options) throws InterruptedException {
        events.clear();
        RunPlan plan = plan(yaml, options);
        PlaybookRunner runner = new PlaybookRunner(
                new RunPorts(
                        h -> hosts.get(h.name()).shell(),
                        (h, timeout) -> hosts.get(h.name()).redis().connect(),
                        clock,
                        clock.sleeper()),
                primaries,
                sentinels,
                policy,
                control);
        return runner.run(plan, event -> {
            events.add(event);
            also.on(event);
            if (event instanceof StepFinished) {
                onEachStep.run();
            }
        });
    }

    public static RunOptions withWindow(String window) {
        return sequential().withWindow(Optional.of(ChangeWindow.parse(window)));
    }

    /** Results of one step type on one host, in order. */
    public List<StepResult> results(String host, String type) {
        synchronized (events) {
            return events.stream()
                    .filter(e -> e instanceof StepFinished f
                            && f.host().equals(host)
                            && f.type().equals(type))
                    .map(e -> ((StepFinished) e).result())
                    .toList();
        }
    }

    public StepResult result(String host, String type) {
        List<StepResult> all = results(host, type);
        if (all.isEmpty()) {
            throw new AssertionError("no " + type + " result on " + host + "; events: " + events);
        }
        return all.get(all.size() - 1);
    }
}
