package dev.fleetfix;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * Bad input from the user: a playbook, an inventory or an option. The CLI maps it to exit code 2
 * and prints {@link #getMessage()} as one line, before any host is touched.
 */
public class InputException extends RuntimeException {
    private final Optional<Path> file;
    private final int line;
    private final int column;
    private final List<String> detail;

    public InputException(String message) {
        this(null, 0, 0, message);
    }

    public InputException(Path file, int line, int column, String message) {
        this(file, line, column, message, List.of());
    }

    /**
     * An error whose one-line message is followed by {@code detail}: lines a person reads under it (the offending
     * line quoted with a caret, a hint), printed after the message and never needed to tell what went wrong.
     */
    public InputException(Path file, int line, int column, String message, List<String> detail) {
        super(format(file, line, column, message));
        this.file = Optional.ofNullable(file);
        this.line = line;
        this.column = column;
        this.detail = List.copyOf(detail);
    }

    /** Lines to print under the message (a quoted line, a hint); empty for most errors. */
    public List<String> detail() {
        return detail;
    }

    public Optional<Path> file() {
        return file;
    }

    /** 1-based line, or 0 when unknown. */
    public int line() {
        return line;
    }

    /** 1-based column, or 0 when unknown. */
    public int column() {
        return column;
    }

    private static String format(Path file, int line, int column, String message) {
        if (file == null) {
            return message;
        }
        StringBuilder where = new StringBuilder(file.toString());
        if (line > 0) {
            where.append(':').append(line);
            if (column > 0) {
                where.append(':').append(column);
            }
        }
        return where + ": " + message;
    }
}
