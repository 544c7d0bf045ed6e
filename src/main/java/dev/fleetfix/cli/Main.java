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
        CommandLine cmd = new CommandLine(new FleetfixCommand());
        cmd.setExecutionExceptionHandler(new ErrorHandler());
        cmd.setParameterExceptionHandler(new ErrorHandler.UsageHandler());
        cmd.setCaseInsensitiveEnumValuesAllowed(true);
        return cmd;
    }
}
