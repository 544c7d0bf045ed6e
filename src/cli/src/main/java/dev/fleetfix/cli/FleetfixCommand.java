package dev.fleetfix.cli;

import dev.fleetfix.inventory.ansible.AnsibleEnvironment;
import dev.fleetfix.inventory.ansible.InventoryService;
import dev.fleetfix.report.console.InputWarnings;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Optional;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * The top-level {@code fleetfix} command: global options, help and version. Its subcommands are {@link
 * CommandTree}'s, added by {@link Main}: all of them, or only the one invoked.
 */
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
        })
public class FleetfixCommand implements Runnable {

    @Spec
    CommandSpec spec;

    private boolean[] verbose = new boolean[0];

    @Option(
            names = {"-v", "--verbose"},
            scope = picocli.CommandLine.ScopeType.INHERIT,
            description = "More output: -v shows each command run, -vv adds library logs and stack traces,"
                    + " -vvv each host's and command's times.")
    void setVerbose(boolean[] verbose) {
        this.verbose = verbose;
    }

    int verbosity() {
        return verbose.length;
    }

    private Path sshConfigFile;

    @Option(
            names = {"-F", "--ssh-config"},
            paramLabel = "FILE",
            scope = picocli.CommandLine.ScopeType.INHERIT,
            description = "OpenSSH client configuration read for every host (default: ~/.ssh/config; none: no file).")
    void setSshConfig(Path file) {
        this.sshConfigFile = file;
    }

    /** Where Ansible's configuration is looked for; tests point these at a temporary directory. */
    AnsibleSettings ansibleSettings = AnsibleSettings.ofProcess();

    /** The Ansible environment of the command line {@code cmd} runs in; nothing read when its root is not fleetfix. */
    static AnsibleEnvironment environment(CommandLine cmd) {
        CommandLine root = cmd;
        while (root.getParent() != null) {
            root = root.getParent();
        }
        if (root.getCommand() instanceof FleetfixCommand app) {
            return app.ansibleSettings.environment(Optional.ofNullable(app.sshConfigFile));
        }
        return AnsibleEnvironment.none();
    }

    /**
     * The inventory service of one run of {@code cmd}: what it doubts goes to the command's stderr, Ansible's input
     * warnings as {@code [WARNING]: ...}, the rest as fleetfix's warnings and notes.
     */
    static InventoryService inventoryService(CommandLine cmd) {
        PrintWriter err = cmd.getErr();
        return new InventoryService(
                environment(cmd),
                new InventoryService.Messages(
                        InputWarnings.to(err),
                        warning -> {
                            err.println("fleetfix: warning: " + warning);
                            err.flush();
                        },
                        note -> {
                            err.println("fleetfix: note: " + note);
                            err.flush();
                        }));
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
