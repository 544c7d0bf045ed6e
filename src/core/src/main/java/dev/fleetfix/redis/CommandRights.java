package dev.fleetfix.redis;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Whether Redis lets a user run a command, asked with {@code ACL DRYRUN} (Redis 7.0+), which runs nothing: the
 * audit lists what fleetfix may not run, and a restart refuses before its first action when its route needs a
 * command the user may not run or that was renamed away.
 */
public final class CommandRights {
    /** What {@code ACL DRYRUN} said of one command. */
    public enum Verdict {
        /** The user may run it. */
        ALLOWED,
        /** The user may not run it ({@code NOPERM}). */
        NOT_PERMITTED,
        /** Redis does not know it: renamed away ({@code rename-command}). */
        UNKNOWN_COMMAND,
        /** The user may not run ACL DRYRUN itself (or ACL is renamed): nothing more can be asked. */
        DRYRUN_REFUSED,
        /** Another error: this command's right cannot be told. */
        CANNOT_TELL
    }

    private CommandRights() {}

    /** Asks whether {@code user} may run {@code example} (a {@link NeededCommands.Needed#example()}). */
    public static Verdict dryrun(RedisNode node, String user, List<String> example) {
        List<String> args = new ArrayList<>(List.of("DRYRUN", user));
        args.addAll(example);
        Object reply;
        try {
            reply = node.command("ACL", args.toArray(String[]::new));
        } catch (RedisException e) {
            if (e.refused()) {
                return Verdict.DRYRUN_REFUSED;
            }
            String text = String.valueOf(e.detail()).toLowerCase(Locale.ROOT);
            return text.contains("not found") || text.contains("unknown command")
                    ? Verdict.UNKNOWN_COMMAND
                    : Verdict.CANNOT_TELL;
        }
        return "OK".equals(String.valueOf(reply)) ? Verdict.ALLOWED : Verdict.NOT_PERMITTED;
    }

    /** ACL DRYRUN came with Redis 7.0 ({@code redis_version}; Valkey reports 7.2.4). */
    public static boolean canAsk(String version) {
        try {
            return Integer.parseInt(version.split("\\.")[0]) >= 7;
        } catch (NumberFormatException e) {
            return false;
        }
    }
}
