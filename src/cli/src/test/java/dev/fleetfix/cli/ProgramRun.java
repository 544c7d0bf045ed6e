package dev.fleetfix.cli;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * One run of a program of this machine (ansible-inventory, a launcher script), with what it printed. Like
 * {@link CliRun}, its {@link #toString()} holds the command, exit code, stdout and stderr, for assertion messages.
 */
record ProgramRun(List<String> command, int exitCode, String stdout, String stderr) {
    private static final long TIMEOUT_MINUTES = 5;

    ProgramRun {
        command = List.copyOf(command);
    }

    /**
     * Runs an Ansible command in {@code dir} as on a machine of its own: none of this process's {@code ANSIBLE_*}
     * variables, an empty ansible.cfg and a HOME under {@code scratch} (made when missing), then {@code settings}.
     */
    static ProgramRun ansible(Path dir, Path scratch, Map<String, String> settings, List<String> command) {
        Path config = scratch.resolve("ansible.cfg");
        Path home = scratch.resolve("home");
        try {
            Files.createDirectories(home);
            if (!Files.exists(config)) {
                Files.writeString(config, "");
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return of(
                dir,
                env -> {
                    env.keySet().removeIf(name -> name.startsWith("ANSIBLE_"));
                    env.put("ANSIBLE_CONFIG", config.toString());
                    env.put("HOME", home.toString());
                    env.putAll(settings);
                },
                command);
    }

    /**
     * Runs {@code command} in {@code dir}, with this process's environment as {@code env} edits it; stdin is empty.
     * A program that does not end within five minutes fails the test.
     */
    static ProgramRun of(Path dir, Consumer<Map<String, String>> env, List<String> command) {
        try {
            Path out = Files.createTempFile("program", ".out");
            Path err = Files.createTempFile("program", ".err");
            try {
                ProcessBuilder builder = new ProcessBuilder(command)
                        .directory(dir.toFile())
                        .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")))
                        .redirectOutput(out.toFile())
                        .redirectError(err.toFile());
                env.accept(builder.environment());
                Process process = builder.start();
                if (!process.waitFor(TIMEOUT_MINUTES, TimeUnit.MINUTES)) {
                    process.destroyForcibly();
                    throw new AssertionError(String.join(" ", command) + " did not end within " + TIMEOUT_MINUTES
                            + " minutes\n--- stdout\n" + Files.readString(out) + "--- stderr\n"
                            + Files.readString(err));
                }
                return new ProgramRun(command, process.exitValue(), Files.readString(out), Files.readString(err));
            } finally {
                Files.deleteIfExists(out);
                Files.deleteIfExists(err);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot run " + String.join(" ", command), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted while running " + String.join(" ", command), e);
        }
    }

    /** Fails with everything printed unless the program exited with 0. */
    ProgramRun expectSuccess() {
        if (exitCode != 0) {
            throw new AssertionError("expected exit code 0\n" + this);
        }
        return this;
    }

    @Override
    public String toString() {
        return "$ " + String.join(" ", command) + "\nexit code " + exitCode + "\n--- stdout\n" + stdout + "--- stderr\n"
                + stderr + "---";
    }
}
