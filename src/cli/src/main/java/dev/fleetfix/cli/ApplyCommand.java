package dev.fleetfix.cli;

import dev.fleetfix.InputException;
import dev.fleetfix.inventory.HostSelection;
import dev.fleetfix.inventory.InventoryInput;
import dev.fleetfix.inventory.InventoryService;
import dev.fleetfix.playbook.TagSelection;
import dev.fleetfix.report.console.ApplyOutput;
import dev.fleetfix.report.console.InputWarnings;
import dev.fleetfix.rollout.ApplyRequest;
import dev.fleetfix.rollout.ApplyService;
import dev.fleetfix.rollout.event.RunListener;
import dev.fleetfix.rollout.plan.RunPlan;
import dev.fleetfix.rollout.shard.ShardSpec;
import java.io.PrintWriter;
import java.nio.file.Path;
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
            "  3  --check: changes are pending, and nothing would fail",
            "",
            "--list-hosts and --syntax-check read files only and connect to nothing: 0 or 2."
        })
final class ApplyCommand implements Callable<Integer>, JsonOutput {
    @Spec
    CommandSpec spec;

    @Mixin
    InventoryOptions inventory;

    @Mixin
    SshOptionsMixin ssh;

    @Mixin
    ShardOptions shards;

    @Parameters(
            index = "0",
            arity = "0..1",
            paramLabel = "PLAYBOOK",
            description = "The playbook (YAML). With --resume, the journal's playbook when not given.")
    Path playbook;

    @Mixin
    RunOptionsMixin run;

    @Mixin
    ForksOption forks;

    @Mixin
    TagOptionsMixin tags;

    @Option(names = "--no-color", description = "Plain output, no ANSI colours.")
    boolean noColor;

    @Option(
            names = "--report",
            paramLabel = "DIR",
            description = "Also write report.json, junit.xml and report.html into DIR (created when missing).")
    Path reportDir;

    /** What apply prints on standard output. */
    enum Format {
        TABLE,
        JSON
    }

    /** {@code table}, {@code json}: what completion offers. */
    static final class Formats extends EnumWords<Format> {
        Formats() {
            super(Format.class);
        }
    }

    @Option(
            names = "--format",
            paramLabel = "FORMAT",
            completionCandidates = Formats.class,
            description = "table (default: progress and recap on stdout) or json: the report (schema_version, as"
                    + " report.json) as one JSON document on stdout when the run ends, the progress on stderr;"
                    + " with --list-hosts, the plays' hosts; an error as a JSON document (docs/json.md). Default json"
                    + " where ansible.cfg's"
                    + " stdout_callback or ANSIBLE_STDOUT_CALLBACK is json (or ansible.posix.json).")
    Format format;

    private final Adapters adapters;

    ApplyCommand(Adapters adapters) {
        this.adapters = adapters;
    }

    @Override
    public boolean jsonAsked() {
        return format == Format.JSON;
    }

    @Override
    public Integer call() throws InterruptedException {
        PrintWriter out = spec.commandLine().getOut();
        if (run.force && run.resume == null) {
            throw new InputException("--force: only with --resume DIR (it resumes a run whose playbook or inventory"
                    + " changed since it started)");
        }
        Optional<ApplyRequest.Resume> resumed =
                Optional.ofNullable(run.resume).map(dir -> ApplyRequest.Resume.read(dir, run.force));
        Optional<Path> book = Optional.ofNullable(playbook);
        InventoryInput source = inventory.source();
        Optional<String> limit = inventory.limit();
        if (resumed.isPresent()) {
            book = resumed.get().playbook(book);
            if (source.sources().size() < 2) {
                Optional<Path> first = source.sources().stream().findFirst();
                source = source.withSources(
                        resumed.get().inventory(first).stream().toList());
            }
            limit = resumed.get().limit(limit);
        }
        if (book.isEmpty()) {
            throw new InputException("missing PLAYBOOK (or --resume DIR of an earlier run)");
        }
        if (tags.listing() && inventory.listHosts()) {
            throw new InputException("--list-hosts, and --list-tasks or --list-tags: ask for one listing at a time");
        }
        Optional<TagSelection> givenTags = tags.given();
        TagSelection tagSelection =
                resumed.map(r -> r.tags(givenTags)).orElseGet(() -> givenTags.orElse(TagSelection.all()));
        // a resume takes its run's cut unless told otherwise (which it refuses without --force)
        Optional<ShardSpec> shard = resumed.map(r -> r.shard(shards.spec())).orElseGet(shards::spec);
        InventoryService inventories = FleetfixCommand.inventoryService(spec.commandLine());
        // group_vars/ and host_vars/ next to the playbook count too, above the inventory's
        HostSelection selection = shards.narrow(
                inventories.load(
                        source, limit, Optional.of(book.get().toAbsolutePath().getParent())),
                shard,
                adapters.redis(),
                forks.forks(),
                !inventory.listHosts() && !run.syntaxCheck && !tags.listing());
        if (selection.sources().size() > 1 && !inventory.listHosts()) {
            // the journal keeps one inventory path: a resume without the same -i options would read fewer hosts
            spec.commandLine()
                    .getErr()
                    .println("fleetfix: warning: the run journal records the first inventory only ("
                            + selection.firstSource().orElseThrow() + "): give the same -i options to apply"
                            + " --resume");
        }
        ApplyRequest request = new ApplyRequest(
                book.get(),
                selection,
                shard,
                run.runOptions(
                        forks.forks(),
                        inventories.extraVars(source).values(),
                        tagSelection,
                        Optional.ofNullable(reportDir)),
                resumed);
        ApplyService service =
                adapters.applyService(ssh, InputWarnings.to(spec.commandLine().getErr()));
        if (tags.listing()) {
            ApplyOutput.taskListing(service.listing(request), tags.listTasks, tags.listTags, out);
            return ExitCode.OK;
        }
        boolean json = format == Format.JSON;
        if (inventory.listHosts() || run.syntaxCheck) {
            // Files only: the plan of a run, in inventory order, without reading any Redis for the topology.
            RunPlan plan = service.planFromFiles(request);
            if (inventory.listHosts() && json) {
                ApplyOutput.hostListJson(plan, out);
            } else if (inventory.listHosts()) {
                ApplyOutput.hostList(request.playbook(), plan, out);
            } else {
                ApplyOutput.syntaxChecked(request.playbook(), out);
            }
            return ExitCode.OK;
        }
        // with json, stdout carries the one document and nothing else: the progress goes to stderr
        PrintWriter human = json ? spec.commandLine().getErr() : out;
        // Everything this run will write is checked before any host (or Redis) is contacted.
        Optional<Path> reports = Optional.ofNullable(reportDir);
        RunListener listener = ApplyOutput.listener(
                human,
                Colors.enabled(noColor),
                Screens.of(),
                run.diff,
                reports,
                json ? Optional.of(out) : Optional.empty());
        ApplyService.ApplyResult result = service.apply(request, listener, r -> ApplyOutput.ending(r, reports, human));
        return ExitCode.of(result.summary(), run.check);
    }
}
