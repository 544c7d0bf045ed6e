package dev.fleetfix.cli;

import java.util.Map;

/**
 * Whether console output gets ANSI colours: only on a terminal (not piped, not redirected), never
 * with {@code --no-color}, {@code NO_COLOR} set, or {@code TERM} unset or {@code dumb}.
 */
final class Colors {
    private Colors() {}

    static boolean enabled(boolean noColor) {
        return enabled(noColor, System.console() != null, System.getenv());
    }

    static boolean enabled(boolean noColor, boolean terminal, Map<String, String> env) {
        if (noColor || !terminal || env.containsKey("NO_COLOR")) {
            return false;
        }
        String term = env.get("TERM");
        return term != null && !term.isBlank() && !term.equals("dumb");
    }
}
