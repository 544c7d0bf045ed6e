package dev.fleetfix.inventory;

import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * A systemd unit name as fleetfix accepts it from an inventory or playbook ({@code redis_service},
 * {@code before_unit}, {@code restart_redis.unit}). Such a name is written into unit files
 * ({@code Before=}) and command lines, so only systemd's own characters are allowed: a newline
 * there would add lines such as {@code ExecStartPre=} to a unit that runs as root at boot.
 */
public final class UnitName {
    /** systemd's unit name characters (unit_name_is_valid), without "\" escapes, and not starting with "-". */
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9:_@][A-Za-z0-9:_.@-]*");

    private static final Set<String> TYPES = Set.of(
            "service", "socket", "device", "mount", "automount", "swap", "target", "path", "timer", "slice", "scope");
    private static final int MAX_LENGTH = 255;

    private UnitName() {}

    /** Why {@code name} is not a unit name fleetfix will write, or empty when it is one. */
    public static Optional<String> problem(String name) {
        if (name.isEmpty()) {
            return Optional.of("a unit name cannot be empty");
        }
        if (name.length() > MAX_LENGTH) {
            return Optional.of("a unit name has at most " + MAX_LENGTH + " characters, this one " + name.length());
        }
        if (!NAME.matcher(name).matches()) {
            return Optional.of("\"" + printable(name) + "\" is not a systemd unit name (letters, digits and"
                    + " : _ . @ - only, not starting with - or .)");
        }
        return Optional.empty();
    }

    /** The full unit name: {@code .service} added unless the name ends with a unit type, as systemctl does. */
    public static String withSuffix(String name) {
        int dot = name.lastIndexOf('.');
        return dot > 0 && TYPES.contains(name.substring(dot + 1)) ? name : name + ".service";
    }

    /** The name with control characters shown as escapes, so an error message stays one line. */
    static String printable(String name) {
        StringBuilder b = new StringBuilder();
        name.codePoints().forEach(c -> {
            if (c == '\n') {
                b.append("\\n");
            } else if (c < 0x20 || c == 0x7f) {
                b.append(String.format("\\x%02x", c));
            } else {
                b.appendCodePoint(c);
            }
        });
        return b.toString();
    }
}
