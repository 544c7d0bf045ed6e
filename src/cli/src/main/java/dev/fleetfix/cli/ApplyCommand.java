package dev.fleetfix.cli;

import dev.fleetfix.inventory.HostSelection;
import dev.fleetfix.inventory.ansible.InventoryService;
import dev.fleetfix.report.console.ApplyOutput;
import dev.fleetfix.report.console.InputWarnings;
import dev.fleetfix.rollout.ApplyRequest;
import dev.fleetfix.rollout.ApplyService;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

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
final class ApplyCommand extends HostsCommand implements Callable<Integer>, JsonOutput {
    @Parameters(
            index = "0",
            arity = "0..1",
            paramLabel = "PLAYBOOK",
            description = "The playbook (YAML). With --resume, the journal's playbook when not given.")
    Path playbook;

    @Mixin
    RunOptionsMixin run;

    @Mixin
    TagOptionsMixin tags;

    @Mixin
    ApplyOutputOptions output;

    ApplyCommand(Adapters adapters) {
        super(adapters);
    }

    @Override
    public boolean jsonAsked() {
        return output.json();
    }

    @Override
    public Integer call() throws InterruptedException {
        Optional<ApplyRequest.Resume> resumed = run.resumed();
        ApplyInputs given = ApplyInputs.of(Optional.ofNullable(playbook), inventory, tags, shards, resumed);
        boolean listing = inventory.listHosts() || run.syntaxCheck || tags.listing();
        InventoryService inventories = FleetfixCommand.inventoryService(spec.commandLine());
        HostSelection selection = given.select(inventories, shards, adapters.redis(), forks.forks(), !listing);
        PrintWriter err = spec.commandLine().getErr();
        if (selection.sources().size() > 1 && !inventory.listHosts()) {
            // the journal keeps one inventory path: a resume without the same -i options would read fewer hosts
            err.println("fleetfix: warning: the run journal records the first inventory only ("
                    + selection.firstSource().orElseThrow() + "): give the same -i options to apply --resume");
        }
        Map<String, Object> extraVars = inventories.extraVars(given.source()).values();
        ApplyRequest request = new ApplyRequest(
                given.playbook(),
                selection,
                given.shard(),
                run.runOptions(forks.forks(), extraVars, given.tags(), output.reports()),
                resumed);
        ApplyService service = adapters.applyService(ssh, InputWarnings.to(err));
        PrintWriter out = spec.commandLine().getOut();
        if (tags.listing()) {
            ApplyOutput.taskListing(service.listing(request), tags.listTasks, tags.listTags, out);
            return ExitCode.OK;
        }
        if (listing) {
            // Files only: the plan of a run, in inventory order, without reading any Redis for the topology.
            ApplyOutput.planListing(
                    request.playbook(), service.planFromFiles(request), inventory.listHosts(), output.json(), out);
            return ExitCode.OK;
        }
        PrintWriter human = output.human(out, err);
        ApplyService.ApplyResult result = service.apply(
                request, output.listener(out, err, run.diff), r -> ApplyOutput.ending(r, output.reports(), human));
        return ExitCode.of(result.summary(), run.check);
    }
}
