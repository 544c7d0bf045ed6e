package dev.fleetfix.cli;

import dev.fleetfix.inventory.Host;
import dev.fleetfix.report.console.Recap;
import dev.fleetfix.report.files.ReportFiles;
import dev.fleetfix.report.files.ReportJson;
import dev.fleetfix.report.files.ReportMerge;
import dev.fleetfix.report.model.FleetReport;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code fleetfix report}: works with the reports {@code apply --report DIR} wrote. */
@Command(
        name = "report",
        mixinStandardHelpOptions = true,
        description = "Reads saved fleet reports.",
        subcommands = {ReportCommand.Show.class, ReportCommand.Merge.class})
final class ReportCommand implements Runnable {
    @Spec
    CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }

    /** {@code fleetfix report merge DIR...}: the shards' reports as one fleet report. */
    @Command(
            name = "merge",
            mixinStandardHelpOptions = true,
            description = {
                "Merges the report.json of several runs of one playbook (the shards of one change, --shard K/N) into one"
                        + " fleet report: report.json, junit.xml and report.html in --output DIR, the fleet benchmark"
                        + " verdict computed again over every host, and the recap on stdout.",
                "Refused (exit 2): runs of another playbook, another version of it (its sha256), another fleetfix or"
                        + " another mode (--check), and a host that two reports hold.",
                "With -i (and --limit), the hosts of that selection that no report holds are named, and are in the"
                        + " merged report as untouched."
            },
            footerHeading = "%nExit codes:%n",
            footer = {
                "  0  every run ended ok, and with -i every selected host is in a report",
                "  1  a run failed, halted or was refused, or with -i a selected host is in no report",
                "  2  a report is missing or unreadable, the runs differ, or a host is in two reports"
            })
    static final class Merge implements Callable<Integer>, JsonOutput, PromptOptions.NoBecome {
        @Spec
        CommandSpec spec;

        @Parameters(
                index = "0",
                arity = "1..*",
                paramLabel = "DIR",
                description = "Directories given to apply --report, one per shard.")
        List<Path> dirs;

        @Option(
                names = {"-o", "--output"},
                paramLabel = "DIR",
                required = true,
                description =
                        "Where to write the merged report.json, junit.xml and report.html (created when missing).")
        Path output;

        @Mixin
        InventoryOptions inventory;

        @Option(names = "--no-color", description = "Plain output, no ANSI colours.")
        boolean noColor;

        @Option(
                names = "--format",
                paramLabel = "FORMAT",
                completionCandidates = TableOrJson.Words.class,
                description = "table (default: the recap on stdout) or json: the merged report.json on stdout, the"
                        + " recap and warnings on stderr; an error as a JSON document (docs/json.md).")
        TableOrJson format;

        @Override
        public boolean jsonAsked() {
            return format == TableOrJson.JSON;
        }

        @Override
        public Integer call() {
            List<ReportMerge.Input> inputs = dirs.stream()
                    .map(dir -> new ReportMerge.Input(dir, ReportJson.read(dir.resolve(ReportJson.FILE))))
                    .toList();
            // the selection the shards were cut from, when the operator names it: -i alone is all its hosts
            Optional<List<String>> selection =
                    inventory.sourceWithoutBecome().sources().isEmpty()
                            ? Optional.empty()
                            : Optional.of(FleetfixCommand.inventoryService(spec.commandLine())
                                    .load(inventory.sourceWithoutBecome(), inventory.limit(), Optional.empty())
                                    .hosts()
                                    .stream()
                                    .map(Host::name)
                                    .toList());
            ReportMerge.Merged merged = ReportMerge.merge(inputs, selection);
            ReportFiles.prepare(output, "--output");
            ReportMerge.write(output, merged.report());
            PrintWriter err = spec.commandLine().getErr();
            merged.warnings().forEach(w -> err.println("fleetfix: warning: " + w));
            err.flush();
            // with json, stdout carries the one document: the recap goes to stderr
            PrintWriter human = jsonAsked() ? err : spec.commandLine().getOut();
            Recap.print(human, Colors.enabled(noColor), merged.report());
            human.println("merged " + inputs.size() + " reports into " + output + ": " + ReportJson.FILE + ", "
                    + ReportFiles.JUNIT + ", " + ReportFiles.HTML);
            human.flush();
            if (jsonAsked()) {
                PrintWriter out = spec.commandLine().getOut();
                out.print(ReportJson.write(merged.report()));
                out.flush();
            }
            return merged.complete() ? ExitCode.OK : ExitCode.FINDINGS;
        }
    }

    /** {@code fleetfix report show DIR}: the console recap of a saved run. */
    @Command(
            name = "show",
            mixinStandardHelpOptions = true,
            description = "Prints the recap of a saved run from DIR/report.json.",
            footerHeading = "%nExit codes:%n",
            footer = {"  0  the run ended ok", "  1  the run failed, halted or was refused", "  2  no readable report"})
    static final class Show implements Callable<Integer> {
        @Spec
        CommandSpec spec;

        @Parameters(index = "0", paramLabel = "DIR", description = "The directory given to apply --report.")
        Path dir;

        @Option(names = "--no-color", description = "Plain output, no ANSI colours.")
        boolean noColor;

        @Override
        public Integer call() {
            Path file = dir.resolve(ReportJson.FILE);
            FleetReport report = ReportJson.read(file);
            Recap.print(spec.commandLine().getOut(), Colors.enabled(noColor), report);
            return "ok".equals(report.run().outcome()) ? ExitCode.OK : ExitCode.FINDINGS;
        }
    }
}
