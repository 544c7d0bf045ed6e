package dev.fleetfix.rollout;

import dev.fleetfix.transport.Command;
import dev.fleetfix.transport.ExecResult;
import dev.fleetfix.transport.RemoteShell;
import dev.fleetfix.transport.ShellQuote;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * A lock on one host so that two fleetfix runs never remediate it at once: a directory made with
 * {@code mkdir} (atomic on every file system), holding an {@code owner} file with run id, owner and
 * time. Taken when a host starts, removed when it ends; the same run may take it again (next play,
 * retries). A lock held by another run refuses the host; an old one, or one whose process is gone
 * on this machine, is reported as stale but never taken over: a person removes it.
 */
final class HostLock {
    /** {@code /var/lock} is a link to {@code /run/lock} on systemd distributions; tmpfs, so a reboot clears it. */
    static final String PATH = "/run/lock/fleetfix.lock";

    private HostLock() {}

    /** Empty when this run holds the lock now; else why the host is refused. */
    static Optional<String> acquire(RemoteShell shell, RunControl.LockOwner me, Instant now) {
        String d = ShellQuote.quote(PATH);
        String owner = "run=" + me.runId() + "\nowner=" + me.owner() + "\nsince=" + now.getEpochSecond() + "\n";
        String script = "[ -d /run/lock ] || mkdir -p /run/lock; "
                + "if mkdir " + d + " 2>/dev/null; then printf '%s' " + ShellQuote.quote(owner) + " > " + d
                + "/owner && echo acquired; else echo held; cat " + d + "/owner 2>/dev/null; fi";
        ExecResult r = shell.exec(Command.of(script).asRoot().withTimeout(Duration.ofSeconds(30)));
        if (!r.ok()) {
            return Optional.of("cannot take the lock " + PATH + ": " + r.errorText());
        }
        String out = r.stdout();
        if (out.startsWith("acquired")) {
            return Optional.empty();
        }
        Map<String, String> held = fields(out);
        if (me.runId().equals(held.get("run"))) {
            return Optional.empty();
        }
        if (held.get("run") != null && me.isOwn(held.get("run"))) {
            // left by the run this one resumes: take it over, in our name
            ExecResult taken = shell.exec(Command.of("printf '%s' " + ShellQuote.quote(owner) + " > " + d + "/owner")
                    .asRoot()
                    .withTimeout(Duration.ofSeconds(30)));
            return taken.ok()
                    ? Optional.empty()
                    : Optional.of("cannot take over the lock " + PATH + ": " + taken.errorText());
        }
        return Optional.of(describe(held, me, now));
    }

    /**
     * Check mode: why apply would be refused on this host, reading the lock without taking it;
     * empty when the host is free (or held by the run {@code me} resumes).
     */
    static Optional<String> peek(RemoteShell shell, RunControl.LockOwner me, Instant now) {
        ExecResult r = shell.exec(Command.of("cat " + ShellQuote.quote(PATH + "/owner") + " 2>/dev/null || true")
                .asRoot()
                .withTimeout(Duration.ofSeconds(30)));
        if (!r.ok()) {
            return Optional.of("cannot read the lock " + PATH + ": " + r.errorText());
        }
        Map<String, String> held = fields(r.stdout());
        if (held.isEmpty() || (held.get("run") != null && me.isOwn(held.get("run")))) {
            return Optional.empty();
        }
        return Optional.of(describe(held, me, now));
    }

    static String describe(Map<String, String> held, RunControl.LockOwner me, Instant now) {
        String run = held.getOrDefault("run", "?");
        String owner = held.getOrDefault("owner", "?");
        long since = parse(held.get("since"));
        Duration age = since < 0 ? Duration.ZERO : Duration.between(Instant.ofEpochSecond(since), now);
        String text = "locked by run " + run + " (" + owner + ")"
                + (since < 0 ? "" : " for " + age.toMinutes() + " min") + ": " + PATH;
        Optional<String> stale = staleness(owner, age, since, me);
        return stale.map(why -> text + " looks stale (" + why + "); not taken over: check and remove it with"
                        + " 'rm -rf " + PATH + "' on the host")
                .orElse(text + "; another fleetfix run is working on this host");
    }

    private static Optional<String> staleness(String owner, Duration age, long since, RunControl.LockOwner me) {
        if (since >= 0 && age.compareTo(me.staleAfter()) > 0) {
            return Optional.of("older than " + me.staleAfter().toMinutes() + " min");
        }
        // "user@machine pid 123": when the owner ran on this machine, see whether it still runs.
        String[] mine = me.owner().split(" pid ");
        String[] theirs = owner.split(" pid ");
        if (mine.length == 2 && theirs.length == 2 && mine[0].equals(theirs[0])) {
            long pid = parse(theirs[1]);
            if (pid > 0 && ProcessHandle.of(pid).isEmpty()) {
                return Optional.of("its process " + pid + " is gone");
            }
        }
        return Optional.empty();
    }

    /** Removes the lock if this run holds it. */
    static void release(RemoteShell shell, RunControl.LockOwner me) {
        String d = ShellQuote.quote(PATH);
        String script = "if grep -qx " + ShellQuote.quote("run=" + me.runId()) + " " + d + "/owner 2>/dev/null;"
                + " then rm -rf " + d + "; fi";
        shell.exec(Command.of(script).asRoot().withTimeout(Duration.ofSeconds(30)));
    }

    private static Map<String, String> fields(String text) {
        Map<String, String> map = new HashMap<>();
        for (String line : text.split("\n")) {
            int eq = line.indexOf('=');
            if (eq > 0) {
                map.put(line.substring(0, eq).strip(), line.substring(eq + 1).strip());
            }
        }
        return map;
    }

    private static long parse(String text) {
        try {
            return text == null ? -1 : Long.parseLong(text.strip());
        } catch (NumberFormatException e) {
            return -1;
        }
    }
}
