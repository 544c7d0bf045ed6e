package dev.fleetfix.cli;

import java.util.regex.Pattern;

/**
 * The progress lines fleetfix prints while work lasts, matched by the pattern docs/playbooks.md documents (under
 * "Nor is a long step"). Whether any comes, and how many, depends on how fast the machine is: work that ends within
 * 1 s shows none, a loaded machine shows some. A test that reads a command's whole output (an empty stderr, an exact
 * text, a count of lines) takes them out first with {@link #without} and asserts on the rest, so it still fails on any
 * other line. Off a terminal (as in every test) each is a whole line of its own:
 *
 * <ul>
 *   <li>{@code [00:42] running: [key] what: so far}: audit ({@code [fleet]}) and bench on stderr, apply (with the
 *       step's name and time, {@code (21.0s)}) on stdout;
 *   <li>{@code [00:42] waiting: [host] step: what, at most 60s, 3s so far; now: ...}: apply, a wait's first line and
 *       its news while it lasts (whether a wait lasts the 2 s that announce it is speed too);
 *   <li>{@code lab: still booting lab-1 (3s)}: {@code lab up}, on stderr.
 * </ul>
 *
 * A line that only mentions these words ({@code connection lost while running: uname}) is not one of them.
 */
public final class ProgressLines {
    /** One progress line, whole. */
    public static final Pattern LINE = Pattern.compile(
            "\\[\\d{2,}:\\d{2}] (running|waiting): \\[[^\\]\\s]+] \\S.*" + "|lab: still \\S.* \\(\\d+(\\.\\d+)?m?s\\)");

    /** A progress line with its line end, in a text of several lines. */
    private static final Pattern IN_TEXT = Pattern.compile("(?m)^(?:" + LINE.pattern() + ")(?:\\r?\\n|\\z)");

    private ProgressLines() {}

    public static boolean isProgress(String line) {
        return LINE.matcher(line).matches();
    }

    /** {@code text} without its progress lines; every other character kept as it was. */
    public static String without(String text) {
        return IN_TEXT.matcher(text).replaceAll("");
    }
}
