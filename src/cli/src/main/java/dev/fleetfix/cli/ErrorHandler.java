package dev.fleetfix.cli;

import dev.fleetfix.InputException;
import dev.fleetfix.report.HostText;
import dev.fleetfix.report.files.ErrorJson;
import dev.fleetfix.rollout.shard.Sharding;
import java.io.PrintWriter;
import java.util.List;
import java.util.Optional;
import java.util.Set;
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
        if (cmd.getCommand() instanceof JsonOutput json && json.jsonAsked()) {
            printJson(cmd, oneLine(e), exitCode, e);
        }
        return exitCode;
    }

    /** The error as a JSON document on stdout, for a command asked for JSON. */
    static void printJson(CommandLine cmd, String message, int exitCode, Throwable e) {
        Optional<InputException> input = e instanceof InputException i ? Optional.of(i) : Optional.empty();
        PrintWriter out = cmd.getOut();
        out.print(ErrorJson.render(
                message,
                exitCode,
                input.flatMap(InputException::file),
                input.map(InputException::line).orElse(0),
                input.map(InputException::column).orElse(0)));
        out.flush();
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
            if (!(e instanceof PromptOptions.Refused) && !printSuggestions(e, err)) {
                err.println("Try '" + cmd.getCommandSpec().qualifiedName() + " --help' for more information.");
            }
            err.flush();
            if (cmd.getCommand() instanceof JsonOutput json && (json.jsonAsked() || JsonOutput.asked(args))) {
                printJson(cmd, oneLine(e), ExitCode.USAGE, e);
            }
            return ExitCode.USAGE;
        }

        /**
         * picocli's nearest options to an unknown one, but never a safety override: {@code bench -f} (before bench
         * had --forks) was answered with "Possible solutions: --force", which lets a benchmark write under a prefix
         * that holds keys. A typo must not lead to a switch that turns a refusal off.
         */
        private static boolean printSuggestions(ParameterException e, PrintWriter err) {
            if (!(e instanceof CommandLine.UnmatchedArgumentException unmatched)) {
                return false;
            }
            List<String> suggestions = unmatched.getSuggestions().stream()
                    .filter(s -> !SAFETY_OVERRIDES.contains(s))
                    .toList();
            if (suggestions.isEmpty()) {
                return false;
            }
            if (unmatched.isUnknownOption()) {
                err.println("Possible solutions: " + String.join(", ", suggestions));
            } else {
                err.println("Did you mean: " + String.join(" or ", suggestions) + "?");
            }
            return true;
        }
    }

    /** Options that turn a refusal off: named only when the user wrote them, never suggested. */
    static final Set<String> SAFETY_OVERRIDES = Set.of("--force", "--accept-new-host-keys");
}
