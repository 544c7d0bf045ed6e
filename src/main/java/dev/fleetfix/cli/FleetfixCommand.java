package dev.fleetfix.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** The top-level {@code fleetfix} command: global options and the list of subcommands. */
@Command(
        name = "fleetfix",
        mixinStandardHelpOptions = true,
        versionProvider = VersionProvider.class,
        description = {
            "Remediates fleets of Redis hosts over SSH.",
            "Audits Transparent Huge Pages and kernel settings, applies playbooks host by host with health gates,",
            "and benchmarks before and after."
        },
        footerHeading = "%nExit codes:%n",
        footer = {
            "  0  ok",
            "  1  findings (hosts at risk) or host failures",
            "  2  bad usage or bad input; no host was touched",
            "  3  --check: changes are pending"
        },
        subcommands = {
            AuditCommand.class,
            ApplyCommand.class,
            BenchCommand.class,
            ReportCommand.class,
            LabCommand.class,
            CompletionCommand.class
        })
public final class FleetfixCommand implements Runnable {

    @Spec
    CommandSpec spec;

    private boolean[] verbose = new boolean[0];

    @Option(
            names = {"-v", "--verbose"},
            scope = picocli.CommandLine.ScopeType.INHERIT,
            description = "More output: -v shows each command run, -vv adds library logs and stack traces.")
    void setVerbose(boolean[] verbose) {
        this.verbose = verbose;
    }

    int verbosity() {
        return verbose.length;
    }

    /** The -v count given anywhere on the command line of {@code cmd} (the option is inherited). */
    static int verbosity(CommandLine cmd) {
        CommandLine root = cmd;
        while (root.getParent() != null) {
            root = root.getParent();
        }
        return root.getCommand() instanceof FleetfixCommand app ? app.verbosity() : 0;
    }

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }
}
