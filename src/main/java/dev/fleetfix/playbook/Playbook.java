package dev.fleetfix.playbook;

import java.nio.file.Path;
import java.util.List;
import java.util.Objects;

/** A parsed playbook: its file and its plays, in order. */
public record Playbook(Path source, List<Play> plays) {
    public Playbook {
        Objects.requireNonNull(source, "source");
        plays = List.copyOf(plays);
        if (plays.isEmpty()) {
            throw new IllegalArgumentException("playbook " + source + ": no plays");
        }
    }
}
