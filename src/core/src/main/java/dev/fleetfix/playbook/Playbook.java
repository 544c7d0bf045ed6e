package dev.fleetfix.playbook;

import java.nio.file.Path;
import java.util.List;
import java.util.Objects;

/**
 * A parsed playbook: its file and its plays, in order.
 *
 * @param warnings what the parser accepted but doubts, one line each naming file:line:col, for the
 *     commands to print as they print an inventory's: a key written twice, whose last value counts
 */
public record Playbook(Path source, List<Play> plays, List<String> warnings) {
    public Playbook {
        Objects.requireNonNull(source, "source");
        plays = List.copyOf(plays);
        warnings = List.copyOf(warnings);
        if (plays.isEmpty()) {
            throw new IllegalArgumentException("playbook " + source + ": no plays");
        }
    }
}
