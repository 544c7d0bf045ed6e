package dev.fleetfix;

import java.time.Duration;
import java.util.Locale;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The one parser of durations as users write them ({@code 500ms}, {@code 10s}, {@code 2m},
 * {@code 1h}), on the command line and in playbooks, and the ways fleetfix writes them back.
 */
public final class Durations {
    private static final Pattern DURATION = Pattern.compile("(\\d+)\\s*(ms|s|m|h)?");

    private Durations() {}

    /** Why a text is not a duration; callers word it for where the text came from. */
    public enum Problem {
        /** Not a whole number and a unit (or, where allowed, a bare number of seconds). */
        MALFORMED,
        /** A number too large for a duration. */
        TOO_LARGE,
        /** Zero: every duration fleetfix reads must be more than zero. */
        NOT_POSITIVE
    }

    /** A text that is not a duration, and why. */
    public static final class InvalidDuration extends IllegalArgumentException {
        private final Problem problem;

        InvalidDuration(Problem problem, String text) {
            super(problem + ": '" + text + "'");
            this.problem = problem;
        }

        public Problem problem() {
            return problem;
        }
    }

    /**
     * Parses a whole number and a unit (ms, s, m, h), more than zero.
     *
     * @param bareSeconds whether a number without a unit counts as seconds (playbooks) or is
     *     malformed (command-line options)
     * @throws InvalidDuration naming the problem
     */
    public static Duration parse(String text, boolean bareSeconds) {
        Matcher m = DURATION.matcher(text == null ? "" : text.strip());
        if (!m.matches() || (m.group(2) == null && !bareSeconds)) {
            throw new InvalidDuration(Problem.MALFORMED, text);
        }
        String unit = m.group(2) == null ? "s" : m.group(2);
        Duration duration;
        try {
            long amount = Long.parseLong(m.group(1));
            duration = switch (unit) {
                case "ms" -> Duration.ofMillis(amount);
                case "m" -> Duration.ofMinutes(amount);
                case "h" -> Duration.ofHours(amount);
                default -> Duration.ofSeconds(amount);
            };
        } catch (NumberFormatException | ArithmeticException e) {
            throw new InvalidDuration(Problem.TOO_LARGE, text);
        }
        if (duration.isZero()) {
            throw new InvalidDuration(Problem.NOT_POSITIVE, text);
        }
        return duration;
    }

    /** The way a user would type it: {@code 10s}, {@code 500ms}, {@code 2m}, {@code 1h}. */
    public static String typed(Duration d) {
        Objects.requireNonNull(d, "d");
        long ms = d.toMillis();
        if (ms != 0 && ms % 3_600_000 == 0) {
            return ms / 3_600_000 + "h";
        }
        if (ms != 0 && ms % 60_000 == 0) {
            return ms / 60_000 + "m";
        }
        if (ms % 1000 == 0) {
            return ms / 1000 + "s";
        }
        return ms + "ms";
    }

    /** Seconds, to a tenth when not whole: {@code 60s}, {@code 1.5s}; below a second {@code 250ms}. */
    public static String seconds(Duration d) {
        long ms = d.toMillis();
        if (ms < 1000) {
            return ms + "ms";
        }
        if (ms % 1000 == 0) {
            return ms / 1000 + "s";
        }
        return String.format(Locale.ROOT, "%.1fs", ms / 1000.0);
    }
}
