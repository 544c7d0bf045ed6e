package dev.fleetfix.rollout.host;

import dev.fleetfix.rollout.journal.RunControl;
import dev.fleetfix.transport.Command;
import dev.fleetfix.transport.ExecResult;
import dev.fleetfix.transport.HeadTail;
import dev.fleetfix.transport.RemoteShell;
import dev.fleetfix.transport.ShellQuote;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * A lock on one host so that two fleetfix runs never remediate it at once: a directory made with
 * {@code mkdir} (atomic on every file system: of two runs started together exactly one makes it),
 * holding an {@code owner} file with run id, pid, control node, user and time. Taken when a host
 * starts, removed when it ends; the same run (same run id, same pid on the same control node) may
 * take it again (next play, retries). A lock held by another run refuses the host; an old one, or
 * one whose process is gone on this machine, is reported as stale but never taken over: a person
 * removes it.
 */
final class HostLock {
    /** {@code /var/lock} is a link to {@code /run/lock} on systemd distributions; tmpfs, so a reboot clears it. */
    static final String PATH = "/run/lock/fleetfix.lock";

    /**
     * {@code /run/lock} is writable by every local user: what is read back from it is bounded (a
     * 200 MB owner file costs nothing) and each field is cut to a line's worth.
     */
    private static final int OWNER_BYTES = 4096;

    private static final int FIELD_CHARS = 120;

    private HostLock() {}

    /** Empty when this run holds the lock now; else why the host is refused. */
    static Optional<String> acquire(RemoteShell shell, RunControl.LockOwner me, Instant now) {
        String d = ShellQuote.quote(PATH);
        String owner = ownerText(me, now);
        // The owner file is written right after mkdir: a run that finds the directory waits a
        // moment for it, so that it can say who holds the lock. Links are never followed: a local
        // user could point them at a secret file, which this script reads as root.
        String script = "[ -d /run/lock ] || mkdir -p /run/lock; "
                + "if mkdir " + d + " 2>/dev/null; then printf '%s' " + ShellQuote.quote(owner) + " > " + d
                + "/owner && echo acquired && exit 0; rm -rf " + d + "; exit 1; fi; "
                + "if [ -L " + d + " ] || [ -L " + d + "/owner ]; then echo held; echo link=yes; exit 0; fi; "
                + "i=0; while [ ! -s " + d + "/owner ] && [ $i -lt 20 ]; do sleep 0.1; i=$((i+1)); done; "
                + "echo held; head -c " + OWNER_BYTES + " " + d + "/owner 2>/dev/null; exit 0";
        ExecResult r = shell.exec(Command.of(script).asRoot().withTimeout(Duration.ofSeconds(30)));
        if (!r.ok()) {
            return Optional.of("cannot take the lock " + PATH + ": " + HeadTail.cut(r.errorText(), 4 * FIELD_CHARS));
        }
        String out = r.stdout();
        if (out.startsWith("acquired")) {
            return Optional.empty();
        }
        Map<String, String> held = fields(out);
        if (isMine(held, me)) {
            return Optional.empty();
        }
        String run = held.get("run");
        if (run != null && me.resumes(run) && !stillRunningHere(held, me)) {
            // left by the run this one resumes: take it over, in our name
            ExecResult taken = shell.exec(Command.of(
                            "[ ! -L " + d + "/owner ] && printf '%s' " + ShellQuote.quote(owner) + " > " + d + "/owner")
                    .asRoot()
                    .withTimeout(Duration.ofSeconds(30)));
            return taken.ok()
                    ? Optional.empty()
                    : Optional.of("cannot take over the lock " + PATH + ": "
                            + HeadTail.cut(taken.errorText(), 4 * FIELD_CHARS));
        }
        return Optional.of(describe(held, me, now));
    }

    static String ownerText(RunControl.LockOwner me, Instant now) {
        return "run=" + me.runId() + "\npid=" + me.pid() + "\nnode=" + me.node() + "\nuser=" + me.user() + "\nsince="
                + now.getEpochSecond() + "\n";
    }

    /** Ours only when run id, pid and control node all match: a run id alone could be copied. */
    private static boolean isMine(Map<String, String> held, RunControl.LockOwner me) {
        return me.runId().equals(held.get("run"))
                && String.valueOf(me.pid()).equals(held.get("pid"))
                && me.node().equals(held.get("node"));
    }

    private static boolean stillRunningHere(Map<String, String> held, RunControl.LockOwner me) {
        long pid = parse(held.get("pid"));
        return me.node().equals(held.get("node"))
                && pid > 0
                && ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false);
    }

    /**
     * Check mode: why apply would be refused on this host, reading the lock without taking it;
     * empty when the host is free (or held by the run {@code me} resumes).
     */
    static Optional<String> peek(RemoteShell shell, RunControl.LockOwner me, Instant now) {
        String d = ShellQuote.quote(PATH);
        // Read as acquire reads it: links never followed, the owner file bounded.
        ExecResult r = shell.exec(Command.of("if [ -L " + d + " ] || [ -L " + d + "/owner ]; then echo link=yes;"
                        + " else head -c " + OWNER_BYTES + " " + d + "/owner 2>/dev/null; fi; true")
                .asRoot()
                .withTimeout(Duration.ofSeconds(30)));
        if (!r.ok()) {
            return Optional.of("cannot read the lock " + PATH + ": " + HeadTail.cut(r.errorText(), 4 * FIELD_CHARS));
        }
        Map<String, String> held = fields(r.stdout());
        if (held.isEmpty() || isMine(held, me) || me.resumes(held.getOrDefault("run", ""))) {
            return Optional.empty();
        }
        return Optional.of(describe(held, me, now));
    }

    static String describe(Map<String, String> held, RunControl.LockOwner me, Instant now) {
        if ("yes".equals(held.get("link"))) {
            return PATH + " (or its owner file) is a symbolic link, which fleetfix never makes: someone on the"
                    + " host put it there; check and remove it with 'rm -rf " + PATH + "' on the host";
        }
        String run = held.getOrDefault("run", "?");
        String pid = held.getOrDefault("pid", "?");
        String node = held.getOrDefault("node", "?");
        long since = parse(held.get("since"));
        String text = "locked by run " + run + " (pid " + pid + " on control node " + node + ")"
                + (since < 0 ? "" : " since " + Instant.ofEpochSecond(since) + age(since, now)) + ": " + PATH;
        Optional<String> stale = staleness(held, since, now, me);
        return stale.map(why -> text + " looks stale (" + why + "); not taken over: check and remove it with"
                        + " 'rm -rf " + PATH + "' on the host")
                .orElse(text + "; another fleetfix run is working on this host");
    }

    /** " (10 min ago)", or how far ahead the other control node's clock is: never a negative age. */
    private static String age(long since, Instant now) {
        Duration age = Duration.between(Instant.ofEpochSecond(since), now);
        if (age.isNegative()) {
            return " (" + age.negated().toSeconds() + " s ahead of this control node's clock)";
        }
        return age.toMinutes() < 1 ? " (" + age.toSeconds() + " s ago)" : " (" + age.toMinutes() + " min ago)";
    }

    private static Optional<String> staleness(
            Map<String, String> held, long since, Instant now, RunControl.LockOwner me) {
        if (since >= 0) {
            Duration age = Duration.between(Instant.ofEpochSecond(since), now);
            if (age.compareTo(me.staleAfter()) > 0) {
                return Optional.of("older than " + me.staleAfter().toMinutes() + " min");
            }
        }
        // When the owner ran on this machine, see whether it still runs.
        long pid = parse(held.get("pid"));
        if (me.node().equals(held.get("node"))
                && pid > 0
                && ProcessHandle.of(pid).isEmpty()) {
            return Optional.of("its process " + pid + " is gone");
        }
        return Optional.empty();
    }

    /** Removes the lock if this run holds it: same run id and pid, written from this control node. */
    static void release(RemoteShell shell, RunControl.LockOwner me) {
        String d = ShellQuote.quote(PATH);
        String o = d + "/owner";
        String script = "if [ ! -L " + o + " ] && grep -Fqx " + ShellQuote.quote("run=" + me.runId()) + " " + o
                + " 2>/dev/null && grep -Fqx " + ShellQuote.quote("pid=" + me.pid()) + " " + o
                + " && grep -Fqx " + ShellQuote.quote("node=" + me.node()) + " " + o + "; then rm -rf " + d + "; fi";
        shell.exec(Command.of(script).asRoot().withTimeout(Duration.ofSeconds(30)));
    }

    private static Map<String, String> fields(String text) {
        Map<String, String> map = new HashMap<>();
        for (String line : text.split("\n")) {
            int eq = line.indexOf('=');
            if (eq > 0 && eq < 16) {
                map.putIfAbsent(
                        line.substring(0, eq).strip(),
                        HeadTail.cut(line.substring(eq + 1).strip(), FIELD_CHARS)
                                .replace('\n', ' '));
            }
        }
        return map;
    }

    /** A non-negative number of seconds an Instant can hold, or -1 for anything else (absent, garbled, forged). */
    private static long parse(String text) {
        try {
            long value = text == null ? -1 : Long.parseLong(text.strip());
            return value >= 0 && value <= Instant.MAX.getEpochSecond() ? value : -1;
        } catch (NumberFormatException e) {
            return -1;
        }
    }
}
