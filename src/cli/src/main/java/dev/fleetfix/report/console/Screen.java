package dev.fleetfix.report.console;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Where human output goes: a terminal (progress rewritten in place) or not, and how wide a line may be. On a
 * terminal, lines longer than the width go on with their details on the next, indented lines.
 *
 * @param terminal whether it is a terminal a person watches (the CLI decides)
 * @param width the columns a line may take
 */
public record Screen(boolean terminal, int width) {
    /** The width when the terminal does not say ({@code COLUMNS} unset or not exported). */
    public static final int DEFAULT_WIDTH = 100;

    /** Narrower than this, lines would hold too little to read; {@code COLUMNS} below it counts as this. */
    static final int MIN_WIDTH = 40;

    public Screen {
        width = Math.max(MIN_WIDTH, width);
    }

    /** Not a terminal, {@link #DEFAULT_WIDTH} wide: what tests and pipes get. */
    public static Screen pipe() {
        return new Screen(false, DEFAULT_WIDTH);
    }

    /** The width {@code COLUMNS} gives (shells set it for terminals), else {@link #DEFAULT_WIDTH}. */
    public static Screen of(boolean terminal, Map<String, String> env) {
        int width = DEFAULT_WIDTH;
        String columns = env.get("COLUMNS");
        if (terminal && columns != null && columns.strip().matches("\\d{1,4}")) {
            width = Integer.parseInt(columns.strip());
        }
        return new Screen(terminal, width);
    }

    /** {@code text} cut to {@code width} characters, its end marked with an ellipsis when cut. */
    static String cut(String text, int width) {
        return text.length() <= width ? text : text.substring(0, Math.max(0, width - 1)) + "…";
    }

    /**
     * {@code text} as lines of at most the width on a terminal: broken at spaces (a word longer than a line stays
     * whole), lines after the first indented by {@code indent}. Off a terminal the line stays whole: logs are read
     * with grep and viewers that wrap for themselves, and no width is known.
     */
    public List<String> wrap(String text, String indent) {
        if (!terminal || text.length() <= width) {
            return List.of(text);
        }
        int lead = text.length() - text.stripLeading().length();
        List<String> lines = new ArrayList<>();
        StringBuilder line = new StringBuilder(text.substring(0, lead));
        boolean empty = true;
        for (String word : text.substring(lead).split(" ", -1)) {
            if (!empty && line.length() + 1 + word.length() > width) {
                lines.add(line.toString());
                line = new StringBuilder(indent);
                empty = true;
            }
            if (!empty) {
                line.append(' ');
            }
            line.append(word);
            empty = false;
        }
        lines.add(line.toString());
        return lines;
    }
}
