package dev.fleetfix.transport;

import java.time.Duration;

/** What a command left behind: exit code, output and how long it ran (Ansible's rc, stdout, stderr). */
public record ExecResult(int exitCode, String stdout, String stderr, Duration duration) {
    public boolean ok() {
        return exitCode == 0;
    }

    /** stderr when there is any, else stdout, trimmed: the line a user wants to see when a command fails. */
    public String errorText() {
        String text = stderr.isBlank() ? stdout : stderr;
        return text.strip();
    }
}
