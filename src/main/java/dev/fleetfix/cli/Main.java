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

    /** The command line reading Ansible's configuration from {@code settings} (tests: a temporary HOME). */
    static CommandLine commandLine(AnsibleSettings settings) {
        FleetfixCommand app = new FleetfixCommand();
        app.ansibleSettings = settings;
        CommandLine cmd = new CommandLine(app);
        cmd.setDefaultValueProvider(settings.defaultValues());
        cmd.setExecutionExceptionHandler(new ErrorHandler());
        cmd.setParameterExceptionHandler(new ErrorHandler.UsageHandler());
        cmd.setCaseInsensitiveEnumValuesAllowed(true);
        return cmd;
    }
}
