package dev.fleetfix.transport;

import java.time.Duration;
import java.util.List;

/**
 * A host-side deadline for a command: coreutils' {@code timeout -s KILL}, set one second past the
 * caller's own timeout so that the caller reports the timeout first. It kills the command's whole
 * process group even where the caller cannot: a command run through sudo belongs to root, and sshd
 * delivers no signals to root logins.
 */
public final class KillAfter {
    private KillAfter() {}

    public static List<String> argv(Duration timeout) {
        long seconds = (timeout.toMillis() + 999) / 1000 + 1;
        return List.of("timeout", "-s", "KILL", String.valueOf(seconds));
    }

    public static String prefix(Duration timeout) {
        return String.join(" ", argv(timeout));
    }
}
