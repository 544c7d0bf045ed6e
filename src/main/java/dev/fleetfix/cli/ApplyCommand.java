package dev.fleetfix.cli;

import dev.fleetfix.InputException;
import dev.fleetfix.health.Sleeper;
import dev.fleetfix.inventory.Host;
import dev.fleetfix.redis.RedisConnector;
import dev.fleetfix.redis.jedis.JedisConnector;
import dev.fleetfix.redis.topology.RedisDiscovery;
import dev.fleetfix.report.ConsoleReporter;
import dev.fleetfix.report.ReportFiles;
import dev.fleetfix.rollout.ApplyService;
import dev.fleetfix.rollout.ChangeWindow;
import dev.fleetfix.rollout.HostOrdering;
import dev.fleetfix.rollout.RolloutPolicy;
import dev.fleetfix.rollout.RunControl;
import dev.fleetfix.rollout.RunId;
import dev.fleetfix.rollout.RunJournal;
import dev.fleetfix.rollout.RunOptions;
import dev.fleetfix.rollout.RunPlan;
import dev.fleetfix.rollout.TopologyOrdering;
import dev.fleetfix.rollout.event.RunListener;
import dev.fleetfix.rollout.event.RunOutcome;
import dev.fleetfix.rollout.event.RunSummary;
import dev.fleetfix.steps.StepRegistry;
import dev.fleetfix.transport.ShellFactory;
import dev.fleetfix.transport.ShellPool;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code fleetfix apply PLAYBOOK}: runs a playbook on the inventory's hosts, batch by batch. */
@Command(
        name = "apply",
        mixinStandardHelpOptions = true,
        description = {
            "Runs a playbook: THP off, persisted, Redis restarted host by host behind health gates.",
            "The playbook, inventory and every variable are checked before any host is contacted."
        },
        footerHeading = "%nExit codes:%n",
        footer = {
            "  0  every host done (--check: nothing would change)",
            "  1  a host failed, the rollout halted, or the change window is closed (--check: what apply",
            "     would fail on: an unreachable or locked host, a refused restart, a closed window)",
            "  2  bad input (playbook, inventory, options); no host was touched",
            "  3  --check: changes are pending, and nothing would fail"
        })
final class ApplyCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Mixin
    InventoryOptions inventory;

    @Mixin
    SshOptionsMixin ssh;

    @Parameters(
            index = "0",
            arity = "0..1",
            paramLabel = "PLAYBOOK",
            description = "The playbook (YAML). With --resume, the journal's playbook when not given.")
    Path playbook;

    @Option(
            names = "--run-dir",
            paramLabel = "DIR",
            description =
                    "Where the run journal (journal.jsonl) goes. Default: the --report DIR, else fleetfix-runs/RUN_ID.")
    Path runDir;

    @Option(
            names = "--resume",
            paramLabel = "DIR",
            description = "Continue the run journaled in DIR: hosts done there are skipped; same playbook,"
                    + " inventory and --limit unless given.")
    Path resume;

    @Option(
            names = "--lock-stale-after",
            paramLabel = "DURATION",
            defaultValue = "2h",
            converter = DurationConverter.class,
            description = "Report a host lock older than this as stale (never taken over). Default: ${DEFAULT-VALUE}.")
    Duration lockStaleAfter;

    @Option(names = "--check", description = "Read everything, change nothing; report what would change.")
    boolean check;

    @Option(names = "--diff", description = "Show unified diffs of the files edited (or, with --check, to edit).")
    boolean diff;

    @Option(
            names = "--forks",
            paramLabel = "N",
            defaultValue = "10",
            description = "Hosts of a batch handled at once (default: ${DEFAULT-VALUE}).")
    int forks;

    @Option(
            names = "--window",
            paramLabel = "SPEC",
            description = "Change window overriding the plays' own, e.g. \"Sat 01:00-05:00 Europe/Berlin\".")
    String window;

    @Option(names = "--no-color", description = "Plain output, no ANSI colours.")
    boolean noColor;

    @Option(
            names = "--report",
            paramLabel = "DIR",
            description = "Also write report.json, junit.xml and report.html into DIR (created when missing).")
    Path reportDir;

    // Seams for tests (not options): the ITs inject a clock to open or close the window.
    Clock clock = Clock.systemDefaultZone();
    Sleeper sleeper = Sleeper.system();
    ShellFactory shellFactory;
    RedisConnector redisConnector;
    RolloutPolicy policy = RolloutPolicy.defaults();
    /** Where runs without --run-dir or --report keep their journal, one directory per run. */
    Path runsHome = Path.of("fleetfix-runs");

    @Override
    public Integer call() throws InterruptedException {
        PrintWriter out = spec.commandLine().getOut();
        Optional<RunJournal.Resumable> resumed = resumed();
        if (playbook == null) {
            throw new InputException("missing PLAYBOOK (or --resume DIR of an earlier run)");
        }
        inventory.playbookDir(playbook.toAbsolutePath().getParent());
        List<Host> hosts = inventory.selectHosts();
        if (forks < 1) {
            throw new InputException("--forks: must be >= 1, was " + forks);
        }
        RunOptions options = new RunOptions(check, diff, forks, windowOption(), Duration.ofSeconds(5));
        // One id for the whole run: the lock, the journal, the events, the report and backup names.
        String runId = RunId.next(clock.instant());
        // Everything this run will write is checked before any host (or Redis) is contacted.
        boolean writes = !check && !inventory.listHosts();
        if (reportDir != null && !inventory.listHosts()) {
            ReportFiles.prepare(reportDir);
        }
        Path dir = resume != null
                ? resume
                : runDir != null ? runDir : reportDir != null ? reportDir : runsHome.resolve(runId);
        try (RunJournal journal = writes ? new RunJournal(dir) : null) {
            try {
                return run(out, hosts, resumed, options, runId, dir, journal);
            } catch (InputException e) {
                if (journal != null) {
                    journal.discardUnused();
                }
                throw e;
            }
        }
    }

    private int run(
            PrintWriter out,
            List<Host> hosts,
            Optional<RunJournal.Resumable> resumed,
            RunOptions options,
            String runId,
            Path dir,
            RunJournal journal)
            throws InterruptedException {
        ApplyService service =
                new ApplyService(StepRegistry.standard(), clock, sleeper, policy, Duration.ofMillis(500));
        RedisConnector redis = redisConnector != null ? redisConnector : new JedisConnector();
        HostOrdering ordering =
                new TopologyOrdering(new RedisDiscovery(inventory.inventory(), redis, options.redisTimeout(), forks));
        RunPlan plan = service.plan(playbook, inventory.inventory(), hosts, options, ordering);
        if (inventory.listHosts()) {
            listHosts(plan, out);
            return ExitCode.OK;
        }
        List<RunListener> listeners = new ArrayList<>();
        listeners.add(new ConsoleReporter(out, Colors.enabled(noColor), diff));
        if (reportDir != null) {
            listeners.addAll(ReportFiles.reporters(reportDir));
        }
        RunListener reporter = RunListener.all(listeners);
        ShellFactory factory = shellFactory != null ? shellFactory : ssh.shellFactory();
        if (check) {
            // Check mode takes no lock, but reads them: a host another run holds would refuse apply.
            RunControl peek = new RunControl(
                    Optional.of(RunControl.LockOwner.thisProcess(runId, lockStaleAfter, java.util.Set.of())),
                    java.util.Set.of());
            RunSummary summary;
            try (ShellPool pool = new ShellPool(factory)) {
                summary = service.run(plan, inventory.inventory(), pool::shell, redis, reporter, peek);
            }
            printReports(out);
            return exitCode(summary, check);
        }
        journal.invocation(runId, playbook, inventory.inventoryFile(), inventory.limit());
        RunControl control = new RunControl(
                Optional.of(RunControl.LockOwner.thisProcess(
                        runId,
                        lockStaleAfter,
                        resumed.map(RunJournal.Resumable::runs).orElse(java.util.Set.of()))),
                resumed.map(RunJournal.Resumable::done).orElse(java.util.Set.of()));
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
        try (ShellPool pool = new ShellPool(factory)) {
            RunSummary summary = service.run(
                    plan,
                    inventory.inventory(),
                    pool::shell,
                    redis,
                    RunListener.all(List.of(reporter, journal)),
                    control);
            printReports(out);
            out.println("journal: " + journal.file());
            if (summary.outcome() != RunOutcome.OK) {
                out.println("continue with: fleetfix apply --resume " + dir);
            }
            out.flush();
            return exitCode(summary, check);
        } finally {
            finished.countDown();
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException e) {
                // the JVM is shutting down: the hook is running and now returns
            }
        }
    }

    /** Reads --resume's journal and fills the playbook, inventory and limit it ran with, unless given. */
    private Optional<RunJournal.Resumable> resumed() {
        if (resume == null) {
            return Optional.empty();
        }
        RunJournal.Resumable r;
        try {
            r = RunJournal.read(resume);
        } catch (IllegalArgumentException e) {
            throw new InputException("--resume: " + e.getMessage());
        }
        if (playbook == null) {
            playbook = r.playbook().map(Path::of).orElse(null);
        } else if (r.playbook().isPresent()
                && !Path.of(r.playbook().get()).equals(playbook.toAbsolutePath().normalize())) {
            throw new InputException(
                    "--resume " + resume + " ran playbook " + r.playbook().get() + ", not " + playbook);
        }
        if (inventory.inventoryFile == null) {
            inventory.inventoryFile = r.inventory().map(Path::of).orElse(null);
        }
        if (inventory.limit == null) {
            inventory.limit = r.limit().orElse(null);
        }
        return Optional.of(r);
    }

    private void printReports(PrintWriter out) {
        if (reportDir != null) {
            out.println();
            ReportFiles.paths(reportDir).forEach(p -> out.println("report: " + p));
            out.flush();
        }
    }

    /** Like ansible-playbook --list-hosts: each play and the hosts it would run on, batch by batch. */
    private static void listHosts(RunPlan plan, PrintWriter out) {
        for (RunPlan.PlannedPlay play : plan.plays()) {
            out.println("play [" + play.play().name() + "] (" + play.hosts().size() + " hosts)");
            int n = 0;
            for (List<Host> batch : play.batches().batches()) {
                out.println("  batch " + (++n) + ": "
                        + String.join(", ", batch.stream().map(Host::name).toList()));
            }
            for (String note : play.batches().notes()) {
                out.println("  " + note);
            }
        }
        out.flush();
    }

    static int exitCode(RunSummary summary, boolean check) {
        if (summary.outcome() != RunOutcome.OK) {
            return ExitCode.FINDINGS;
        }
        return check && summary.changesPending() ? ExitCode.CHANGES_PENDING : ExitCode.OK;
    }

    private Optional<ChangeWindow> windowOption() {
        if (window == null) {
            return Optional.empty();
        }
        try {
            return Optional.of(ChangeWindow.parse(window));
        } catch (IllegalArgumentException e) {
            throw new InputException("--window: " + e.getMessage());
        }
    }
}
