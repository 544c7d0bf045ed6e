package dev.fleetfix.rollout.journal;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/** The name of the machine fleetfix runs on, as host locks record it. */
public final class ControlNode {
    private ControlNode() {}

    public static String name() {
        String name = Optional.ofNullable(System.getenv("HOSTNAME"))
                .filter(n -> !n.isBlank())
                .orElseGet(ControlNode::etcHostname);
        // one word: it goes into a key=value line of the lock's owner file
        return name.strip().replaceAll("\\s+", "_");
    }

    private static String etcHostname() {
        try {
            String text = Files.readString(Path.of("/etc/hostname")).strip();
            return text.isEmpty() ? "localhost" : text;
        } catch (IOException | RuntimeException e) {
            return "localhost";
        }
    }
}
