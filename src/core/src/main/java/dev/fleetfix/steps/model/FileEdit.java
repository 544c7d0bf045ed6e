package dev.fleetfix.steps.model;

import java.util.Objects;
import java.util.Optional;

/**
 * An edit of one file on a host, done or (check mode) planned.
 *
 * @param path the file
 * @param before its content before, empty when it did not exist
 * @param after its content after
 * @param backup where the old content was saved, empty when nothing was saved
 */
public record FileEdit(String path, Optional<String> before, String after, Optional<String> backup) {
    public FileEdit {
        Objects.requireNonNull(path, "path");
        Objects.requireNonNull(before, "before");
        Objects.requireNonNull(after, "after");
        Objects.requireNonNull(backup, "backup");
    }

    public boolean changed() {
        return before.isEmpty() || !before.get().equals(after);
    }

    public String diff() {
        return TextDiff.unified(path, before.orElse(null), after);
    }
}
