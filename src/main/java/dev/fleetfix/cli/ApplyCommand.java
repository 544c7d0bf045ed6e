package dev.fleetfix.cli;

import dev.fleetfix.InputException;
import dev.fleetfix.inventory.Host;
import dev.fleetfix.report.ApplyOutput;
import dev.fleetfix.report.ConsoleReporter;
import dev.fleetfix.report.ReportFiles;
import dev.fleetfix.rollout.ApplyRequest;
import dev.fleetfix.rollout.ApplyService;
import dev.fleetfix.rollout.ChangeWindow;
import dev.fleetfix.rollout.RunOptions;
import dev.fleetfix.rollout.event.RunListener;
import dev.fleetfix.rollout.event.RunOutcome;
import dev.fleetfix.rollout.event.RunSummary;
import dev.fleetfix.steps.StepRegistry;
import java.io.PrintWriter;
import java.nio.file.Path;
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

    private final Adapters adapters;

    ApplyCommand(Adapters adapters) {
        this.adapters = adapters;
    }

    /** For tools that build the command tree without the factory: completion and man pages. */
    ApplyCommand() {
        this(Adapters.system());
    }

    @Override
    public Integer call() throws InterruptedException {
        PrintWriter out = spec.commandLine().getOut();
        Optional<ApplyRequest.Resume> resumed = Optional.ofNullable(resume).map(ApplyRequest.Resume::read);
        Optional<Path> book = Optional.ofNullable(playbook);
        if (resumed.isPresent()) {
            book = resumed.get().playbook(book);
            inventory.inventoryFile =
                    resumed.get().inventory(inventory.inventoryFile()).orElse(null);
            inventory.limit = resumed.get().limit(inventory.limit()).orElse(null);
        }
        if (book.isEmpty()) {
            throw new InputException("missing PLAYBOOK (or --resume DIR of an earlier run)");
        }
        inventory.playbookDir(book.get().toAbsolutePath().getParent());
        List<Host> hosts = inventory.selectHosts();
        if (forks < 1) {
            throw new InputException("--forks: must be >= 1, was " + forks);
        }
        ApplyRequest request = new ApplyRequest(
                book.get(),
                inventory.inventory(),
                hosts,
                inventory.inventoryFile(),
                inventory.limit(),
                new RunOptions(check, diff, forks, windowOption(), Duration.ofSeconds(5)),
                lockStaleAfter,
                Optional.ofNullable(runDir).or(() -> Optional.ofNullable(reportDir)),
                adapters.runsHome(),
                resumed);
        ApplyService service = new ApplyService(
                StepRegistry.standard(),
                adapters.clock(),
                adapters.sleeper(),
                adapters.policy(),
                Duration.ofMillis(500),
                adapters.shells(ssh),
                adapters.redis());
        if (inventory.listHosts()) {
            ApplyOutput.hostList(service.plan(request), out);
            return ExitCode.OK;
        }
        // Everything this run will write is checked before any host (or Redis) is contacted.
        Optional<Path> reports = Optional.ofNullable(reportDir);
        reports.ifPresent(ReportFiles::prepare);
        List<RunListener> listeners = new ArrayList<>();
        listeners.add(new ConsoleReporter(out, Colors.enabled(noColor), diff));
        reports.ifPresent(dir -> listeners.addAll(ReportFiles.reporters(dir)));
        ApplyService.ApplyResult result = service.apply(request, RunListener.all(listeners));
        ApplyOutput.ending(result, reports, out);
        return exitCode(result.summary(), check);
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
