package dev.fleetfix.cli;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import picocli.CommandLine;

/**
 * One run of {@code fleetfix} through {@link Main#commandLine()}, with what a user would see. Its
 * {@link #toString()} holds the command, exit code, stdout and stderr, so an assertion described with
 * it ({@code assertThat(run.exitCode()).as(run.toString())}) shows all of them when it fails.
 *
 * @param command the arguments, as typed after {@code fleetfix}
 */
public record CliRun(List<String> command, int exitCode, String stdout, String stderr) {

    public CliRun {
        command = List.copyOf(command);
    }

    public static CliRun of(String... args) {
        return of(Main.commandLine(), args);
    }

    /** Runs {@code cmd}, prepared by the test (a clock or runs dir set on a subcommand, say). */
    public static CliRun of(CommandLine cmd, String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        cmd.setOut(new PrintWriter(out, true));
        cmd.setErr(new PrintWriter(err, true));
        int exitCode = cmd.execute(args);
        return new CliRun(List.of(args), exitCode, out.toString(), err.toString());
    }

    /** Fails with everything printed unless the run exited with {@code expected}. */
    public CliRun expectExit(int expected) {
        if (exitCode != expected) {
            throw new AssertionError("expected exit code " + expected + "\n" + this);
        }
        return this;
    }

    @Override
    public String toString() {
        return "$ fleetfix " + String.join(" ", command) + "\nexit code " + exitCode + "\n--- stdout\n" + stdout
                + "--- stderr\n" + stderr + "---";
    }
}
