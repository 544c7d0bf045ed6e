package dev.fleetfix.cli;

import dev.fleetfix.InputException;
import dev.fleetfix.report.HostText;
import dev.fleetfix.rollout.Sharding;
import java.io.PrintWriter;
import java.util.Optional;
import picocli.CommandLine;
import picocli.CommandLine.IExecutionExceptionHandler;
import picocli.CommandLine.IParameterExceptionHandler;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParseResult;

/**
 * The one place that turns exceptions into exit codes and one-line messages. Stack traces are
 * printed only with {@code -vv}.
 */
final class ErrorHandler implements IExecutionExceptionHandler {

    @Override
    public int handleExecutionException(Exception e, CommandLine cmd, ParseResult parseResult) {
        PrintWriter err = cmd.getErr();
        int exitCode =
                e instanceof InputException || e instanceof ParameterException ? ExitCode.USAGE : ExitCode.FINDINGS;
        // a refused shard cut names the host whose group is unknown: the message is the whole story
        boolean expected = e instanceof InputException || e instanceof Sharding.Refused;
        err.println(cmd.getColorScheme().errorText("fleetfix: " + oneLine(e)));
        if (e instanceof InputException input) {
            input.detail().forEach(line -> err.println("  " + HostText.clean(line)));
        }
        if (verbosity(cmd) >= 2) {
            e.printStackTrace(err);
        } else if (!expected) {
            err.println("(run with -vv for the stack trace)");
        }
        err.flush();
        return exitCode;
    }

    private static String oneLine(Throwable e) {
        String message = e.getMessage();
        if (message == null || message.isBlank()) {
            message = e.getClass().getSimpleName();
        }
        // an error may quote a host (its stderr, a banner): never let it reach the terminal raw
        return HostText.clean(message.replace('\n', ' '));
    }

    private static int verbosity(CommandLine cmd) {
        return FleetfixCommand.verbosity(cmd);
    }

    /** Bad options: one line, the usage hint, exit 2. */
    static final class UsageHandler implements IParameterExceptionHandler {
        @Override
        public int handleParseException(ParameterException e, String[] args) {
            CommandLine cmd = e.getCommandLine();
            PrintWriter err = cmd.getErr();
            // a plug-in of fleetfix's release that is not installed (the lab is one, so that the operator's
            // package carries no Docker client): say what to install instead of suggesting other words
            Optional<CommandPlugin.Known> missing =
                    cmd.getParent() == null && e instanceof CommandLine.UnmatchedArgumentException unmatched
                            ? CommandPlugin.known(unmatched.getUnmatched().get(0))
                            : Optional.empty();
            if (missing.isPresent()) {
                err.println(cmd.getColorScheme()
                        .errorText("fleetfix: " + missing.get().notInstalled()));
                err.flush();
                return ExitCode.USAGE;
            }
            err.println(cmd.getColorScheme().errorText("fleetfix: " + e.getMessage()));
            if (!CommandLine.UnmatchedArgumentException.printSuggestions(e, err)) {
                err.println("Try '" + cmd.getCommandSpec().qualifiedName() + " --help' for more information.");
            }
            err.flush();
            return ExitCode.USAGE;
        }
    }
}
