package dev.fleetfix.cli;

import dev.fleetfix.report.Recap;
import dev.fleetfix.report.ReportJson;
import dev.fleetfix.report.model.FleetReport;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code fleetfix report}: works with the reports {@code apply --report DIR} wrote. */
@Command(
        name = "report",
        mixinStandardHelpOptions = true,
        description = "Reads saved fleet reports.",
        subcommands = {ReportCommand.Show.class})
final class ReportCommand implements Runnable {
    @Spec
    CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
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
