package dev.fleetfix.report.console;

import dev.fleetfix.Progress;
import dev.fleetfix.report.HostText;
import java.io.PrintWriter;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * The one place that paces progress lines, for every command that shows them (apply, bench). Producers tell their
 * progress about once a second ({@link dev.fleetfix.Progress#EVERY}); this decides what a person sees of it:
 *
 * <ul>
 *   <li>on a terminal, one line at the bottom, rewritten in place at each report and cut to the width; the next
 *       ordinary line takes its place. Reports coming each second, it never stands still for 2 s while work runs;
 *   <li>elsewhere (a pipe, a CI log), a line of its own per key (a host) at most every {@link #PIPE_EVERY}, and at
 *       once when what runs changes (the next round); reports coming each second, no key that progresses is silent
 *       longer than {@code PIPE_EVERY} + 1 s = 5 s.
 * </ul>
 *
 * Work that has run for less than {@link #QUIET} shows nothing: a step of a second needs no progress line. Safe to
 * call from several threads.
 */
public final class LiveLine {
    /** Off a terminal, a key's progress gets a line at most this often. */
    public static final Duration PIPE_EVERY = Duration.ofSeconds(4);

    /** Work younger than this shows no progress. */
    public static final Duration QUIET = Duration.ofSeconds(1);

    private final PrintWriter out;
    private final Screen screen;
    private final Map<String, Shown> shown = new HashMap<>();
    /** On a terminal: how many characters of the live line are on the screen, 0 when none. */
    private int onScreen;

    private record Shown(Instant at, String what) {}

    public LiveLine(PrintWriter out, Screen screen) {
        this.out = Objects.requireNonNull(out, "out");
        this.screen = Objects.requireNonNull(screen, "screen");
    }

    /**
     * Shows {@code text}, the progress of {@code key} as of {@code at}, if the pace allows.
     *
     * @param what what runs, for the key: a change shows at once off a terminal
     * @param since when the work began
     * @return whether it was shown
     */
    public synchronized boolean progress(String key, String what, Instant since, Instant at, String text) {
        if (Duration.between(since, at).compareTo(QUIET) < 0) {
            return false;
        }
        if (screen.terminal()) {
            String line = Screen.cut(text, screen.width() - 1);
            // spaces over what is left of a longer line before: no escape sequence, so a dumb terminal shows it too
            out.print("\r" + line + " ".repeat(Math.max(0, onScreen - line.length())) + "\r" + line);
            onScreen = line.length();
            out.flush();
            return true;
        }
        Shown last = shown.get(key);
        if (last != null
                && last.what().equals(what)
                && Duration.between(last.at(), at).compareTo(PIPE_EVERY) < 0) {
            return false;
        }
        shown.put(key, new Shown(at, what));
        out.println(text);
        out.flush();
        return true;
    }

    /** Before an ordinary line: the live line (on a terminal) makes way for it. */
    public synchronized void clear() {
        if (onScreen > 0) {
            out.print("\r" + " ".repeat(onScreen) + "\r");
            onScreen = 0;
        }
    }

    /** A line of its own about {@code key} was shown at {@code at} (an announced wait): the pace counts from it. */
    public synchronized void shown(String key, String what, Instant at) {
        shown.put(key, new Shown(at, what));
    }

    /** The work of {@code key} ended: its next progress shows at once. */
    public synchronized void forget(String key) {
        shown.remove(key);
    }

    /**
     * Tells {@code key}'s progress here as {@code [00:42] running: [key] what: so far}, the time counted from
     * {@code start} on {@code clock} (the command's start): what {@code fleetfix bench} and {@code audit} show.
     */
    public Progress.Listener listener(String key, Clock clock, Instant start) {
        return p -> {
            Instant now = clock.instant();
            long s = Math.max(0, Duration.between(start, now).toSeconds());
            String sofar = p.sofar().isBlank() ? "" : ": " + HostText.clean(p.sofar());
            progress(
                    key,
                    p.what(),
                    start,
                    now,
                    String.format(Locale.ROOT, "[%02d:%02d] running: [%s] %s%s", s / 60, s % 60, key, p.what(), sofar));
        };
    }
}
