package dev.fleetfix.cli;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.Writer;
import java.util.List;
import java.util.function.Consumer;
import picocli.CommandLine;

/**
 * One run of {@code fleetfix} through {@link Main#commandLine(String[])}, as {@code main} builds it (only the invoked
 * subcommand), with what a user would see. Its
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
        return of(Main.commandLine(args), args);
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

    /**
     * Runs {@code cmd} and hands each whole line of its stdout to {@code onLine} as it is printed, so
     * a test can act at a point of the run (move a clock, say) instead of at a guessed time.
     */
    public static CliRun of(CommandLine cmd, Consumer<String> onLine, String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        cmd.setOut(new PrintWriter(new LineTap(out, onLine), true));
        cmd.setErr(new PrintWriter(err, true));
        int exitCode = cmd.execute(args);
        return new CliRun(List.of(args), exitCode, out.toString(), err.toString());
    }

    /** Writes through to {@code out} and tells {@code onLine} of every line ended. */
    private static final class LineTap extends Writer {
        private final StringWriter out;
        private final Consumer<String> onLine;
        private final StringBuilder line = new StringBuilder();

        LineTap(StringWriter out, Consumer<String> onLine) {
            this.out = out;
            this.onLine = onLine;
        }

        @Override
        public synchronized void write(char[] chars, int off, int len) {
            out.write(chars, off, len);
            for (int i = off; i < off + len; i++) {
                if (chars[i] == '\n') {
                    onLine.accept(line.toString());
                    line.setLength(0);
                } else {
                    line.append(chars[i]);
                }
            }
        }

        @Override
        public void flush() {}

        @Override
        public void close() {}
    }

    /**
     * Stdout without the progress lines a run that lasted prints there (apply's), see {@link ProgressLines}: what is
     * left does not depend on how fast the machine is.
     */
    public String stdoutWithoutProgress() {
        return ProgressLines.without(stdout);
    }

    /**
     * Stderr without the progress lines a run that lasted prints there (audit's, bench's, lab up's), see
     * {@link ProgressLines}: empty when the command said nothing else.
     */
    public String stderrWithoutProgress() {
        return ProgressLines.without(stderr);
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
