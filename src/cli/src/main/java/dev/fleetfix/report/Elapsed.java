package dev.fleetfix.report;

import java.time.Duration;
import java.util.Locale;

/** How long a run or a step took, as the console recap and the HTML page both write it: {@code 840ms}, {@code 12.3s}. */
public final class Elapsed {
    private Elapsed() {}

    public static String human(Duration d) {
        long ms = d.toMillis();
        if (ms < 1000) {
            return ms + "ms";
        }
        return String.format(Locale.ROOT, "%.1fs", ms / 1000.0);
    }
}
