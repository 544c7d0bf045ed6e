package dev.fleetfix.cli;

import dev.fleetfix.InputException;
import dev.fleetfix.inventory.Host;
import dev.fleetfix.redis.RedisConnector;
import dev.fleetfix.redis.jedis.JedisConnector;
import dev.fleetfix.report.ConsoleReporter;
import dev.fleetfix.report.ReportFiles;
import dev.fleetfix.rollout.ApplyService;
import dev.fleetfix.rollout.ChangeWindow;
import dev.fleetfix.rollout.RolloutPolicy;
import dev.fleetfix.rollout.RunOptions;
import dev.fleetfix.rollout.RunOutcome;
import dev.fleetfix.rollout.RunPlan;
import dev.fleetfix.rollout.RunSummary;
import dev.fleetfix.rollout.event.RunListener;
import dev.fleetfix.rollout.gate.Sleeper;
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
            "  1  a host failed, the rollout halted, or the change window is closed",
            "  2  bad input (playbook, inventory, options); no host was touched",
            "  3  --check: changes are pending"
        })
final class ApplyCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Mixin
    InventoryOptions inventory;

    @Mixin
    SshOptionsMixin ssh;

    @Parameters(index = "0", paramLabel = "PLAYBOOK", description = "The playbook (YAML).")
    Path playbook;

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

    @Override
    public Integer call() throws InterruptedException {
        PrintWriter out = spec.commandLine().getOut();
        List<Host> hosts = inventory.selectHosts();
        if (forks < 1) {
            throw new InputException("--forks: must be >= 1, was " + forks);
        }
        RunOptions options = new RunOptions(check, diff, forks, windowOption(), Duration.ofSeconds(5));
        ApplyService service =
                new ApplyService(StepRegistry.standard(), clock, sleeper, policy, Duration.ofMillis(500));
        RunPlan plan = service.plan(playbook, inventory.inventory(), hosts, options);
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
        RedisConnector redis = redisConnector != null ? redisConnector : new JedisConnector();
        RunSummary summary;
        try (ShellPool pool = new ShellPool(factory)) {
            summary = service.run(plan, inventory.inventory(), pool::shell, redis, reporter);
        }
        if (reportDir != null) {
            out.println();
            ReportFiles.paths(reportDir).forEach(p -> out.println("report: " + p));
            out.flush();
        }
        return exitCode(summary, check);
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
