package dev.fleetfix.transport;

import java.time.Duration;

/**
 * What a command left behind: exit code, output and how long it ran (Ansible's rc, stdout, stderr).
 *
 * @param dropped bytes of stdout and stderr that were not kept: output beyond {@link HeadTail}'s
 *     bounds is cut in the middle, and the text says where and how much
 */
public record ExecResult(int exitCode, String stdout, String stderr, Duration duration, long dropped) {
    public ExecResult {
        if (dropped < 0) {
            throw new IllegalArgumentException("dropped must be >= 0, was " + dropped);
        }
    }

    /** A result whose output was kept whole. */
    public ExecResult(int exitCode, String stdout, String stderr, Duration duration) {
        this(exitCode, stdout, stderr, duration, 0);
    }

    public boolean ok() {
        return exitCode == 0;
    }

    /** Whether stdout and stderr are whole; when not, a parser or an edit must not trust them. */
    public boolean complete() {
        return dropped == 0;
    }

    /** stderr when there is any, else stdout, trimmed: the line a user wants to see when a command fails. */
    public String errorText() {
        String text = stderr.isBlank() ? stdout : stderr;
        return text.strip();
    }
}
