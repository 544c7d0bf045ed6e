package dev.fleetfix.cli;

import picocli.CommandLine;

/** Entry point: builds the command line and exits with its code. */
public final class Main {
    private Main() {}

    public static void main(String[] args) {
        Verbosity.configureLogging(args);
        System.exit(commandLine().execute(args));
    }

    /** The fully wired command line; tests call this and {@code execute}. */
    public static CommandLine commandLine() {
        return commandLine(AnsibleSettings.ofProcess());
    }

    /** The command line working through {@code adapters} (tests: fakes of the ports). */
    static CommandLine commandLine(Adapters adapters) {
        return commandLine(AnsibleSettings.ofProcess(), adapters);
    }

    /** The command line reading Ansible's configuration from {@code settings} (tests: a temporary HOME). */
    static CommandLine commandLine(AnsibleSettings settings) {
        return commandLine(settings, Adapters.system());
    }

    /** The one place commands get their adapters: picocli makes each through {@link Adapters.Factory}. */
    static CommandLine commandLine(AnsibleSettings settings, Adapters adapters) {
        FleetfixCommand app = new FleetfixCommand();
        app.ansibleSettings = settings;
        CommandLine cmd = new CommandLine(app, new Adapters.Factory(adapters));
        cmd.setDefaultValueProvider(settings.defaultValues());
        cmd.setExecutionExceptionHandler(new ErrorHandler());
        cmd.setParameterExceptionHandler(new ErrorHandler.UsageHandler());
        cmd.setCaseInsensitiveEnumValuesAllowed(true);
        // "@FILE" is -e's, as in ansible-playbook: picocli would otherwise read the file as more arguments.
        cmd.setExpandAtFiles(false);
        CommandPlugin.addAll(cmd);
        return cmd;
    }
}
