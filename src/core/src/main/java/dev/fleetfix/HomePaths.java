package dev.fleetfix;

import java.nio.file.Path;

/**
 * The one reading of {@code ~} in a path a user wrote (an inventory, ansible.cfg, ssh_config, a vault id, an
 * environment variable): {@code ~} alone and a leading {@code ~/} are the control node's home, as a shell reads them.
 * Anything else, {@code ~user/...} and a {@code ~} inside a path included, is left as written.
 */
public final class HomePaths {
    private HomePaths() {}

    /** The text with a leading {@code ~} or {@code ~/} read as {@code home}. */
    public static String expand(String text, Path home) {
        if (text.equals("~") || text.startsWith("~/")) {
            return home + text.substring(1);
        }
        return text;
    }

    /** As {@link #expand(String, Path)}, with this process's home ({@code user.home}). */
    public static String expand(String text) {
        return expand(text, Path.of(System.getProperty("user.home")));
    }
}
