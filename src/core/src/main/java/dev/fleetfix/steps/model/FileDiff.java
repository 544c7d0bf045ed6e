package dev.fleetfix.steps.model;

import java.util.Objects;

/**
 * A file a step edited (or would edit), with a unified diff of the edit.
 *
 * @param path the file on the host
 * @param unifiedDiff {@code --- a/path}, {@code +++ b/path} and hunks; lines end with \n
 * @param backup the backup made before the first change, or empty (new file, check mode)
 */
public record FileDiff(String path, String unifiedDiff, String backup) {
    public FileDiff {
        Objects.requireNonNull(path, "path");
        Objects.requireNonNull(unifiedDiff, "unifiedDiff");
        Objects.requireNonNull(backup, "backup");
    }
}
