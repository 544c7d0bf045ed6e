package dev.fleetfix.transport;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/**
 * A shell script fleetfix sends, read from a resource file next to the class that sends it. The scripts live in
 * {@code src/main/resources} so that the build can check them with shellcheck; their parameters come before them as a
 * preamble of quoted assignments ({@link ShellQuote}), never spliced into their text.
 */
public final class ScriptResource {
    private ScriptResource() {}

    /**
     * The text of {@code name} next to {@code owner}.
     *
     * @throws IllegalStateException when the build left it out
     */
    public static String read(Class<?> owner, String name) {
        try (InputStream in = owner.getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalStateException(
                        "resource " + name + " of " + owner.getName() + " is missing from the build");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** {@code name='value'}: one line of a preamble. */
    public static String assign(String name, String value) {
        return name + "=" + ShellQuote.quote(value) + "\n";
    }
}
