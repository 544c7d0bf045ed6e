package dev.fleetfix.transport;

import java.time.Duration;

/** Durations the way a user typed them: {@code 10s}, {@code 500ms}, {@code 2m}. */
public final class DurationText {
    private DurationText() {}

    public static String of(Duration d) {
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
}
