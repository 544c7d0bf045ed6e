package dev.fleetfix.playbook;

import dev.fleetfix.InputException;
import java.nio.file.Path;
import java.util.Objects;

/** Where something was written in a playbook: file, 1-based line and column. */
public record Location(Path file, int line, int column) {
    public Location {
        Objects.requireNonNull(file, "file");
        if (line < 0 || column < 0) {
            throw new IllegalArgumentException("location: line and column must be >= 0, was " + line + ":" + column);
        }
    }

    /** An input error pointing here. */
    public InputException error(String message) {
        return new InputException(file, line, column, message);
    }

    @Override
    public String toString() {
        return file + ":" + line + ":" + column;
    }
}
