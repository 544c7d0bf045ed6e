package dev.fleetfix.transport.held;

import dev.fleetfix.transport.FileStamp;
import dev.fleetfix.transport.RemoteShell;
import java.nio.file.Path;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * One login's connection as the holder keeps it: its shell, the state of the files its trust rested on when it was
 * opened, and when a run last took it. A run is given the shell only while each of those files is as it was and the
 * connection still answers; else the holder logs in again, as a direct login would, and fails the same.
 */
final class HeldConnection {
    private final Instant since = Instant.now();
    private RemoteShell shell;
    private Holder.Liveness liveness;
    private Map<Path, Optional<FileStamp>> trusted = Map.of();
    private volatile Instant lastUsed = since;
    private volatile int runs;

    /** The shell for a run and whether it was held already; opened (again) when there is none it may reuse. */
    synchronized Taken take(HoldLogin login, Holder.Opener opener, Consumer<String> log) {
        if (shell != null) {
            Optional<String> stale = staleness(login);
            if (stale.isPresent()) {
                log.accept(login.host().name() + ": " + stale.get() + ": logging in again");
                shell.close();
                shell = null;
            }
        }
        boolean reused = shell != null;
        if (shell == null) {
            Holder.Opened opened = opener.open(login);
            Map<Path, Optional<FileStamp>> stamps = new LinkedHashMap<>();
            opened.trust().forEach(file -> stamps.put(file, FileStamp.of(file)));
            shell = opened.shell();
            liveness = opened.liveness();
            trusted = stamps;
        }
        runs++;
        lastUsed = Instant.now();
        return new Taken(shell, reused);
    }

    /** Why the held shell may not be given to a run: a file its trust rested on changed, or it does not answer. */
    private Optional<String> staleness(HoldLogin login) {
        Optional<Path> changed = trusted.entrySet().stream()
                .filter(e -> !FileStamp.of(e.getKey()).equals(e.getValue()))
                .map(Map.Entry::getKey)
                .findFirst();
        if (changed.isPresent()) {
            return Optional.of(changed.get() + " changed since its connection was opened");
        }
        if (!liveness.respondsWithin(login.options().connectTimeout())) {
            return Optional.of("its connection did not answer within "
                    + login.options().connectTimeout().toSeconds() + "s");
        }
        return Optional.empty();
    }

    synchronized void close() {
        if (shell != null) {
            shell.close();
        }
    }

    /** The holder's status line for this connection. */
    String describe(HoldLogin login) {
        return login + ", held since " + since + ", last used " + lastUsed + ", " + runs + " opens";
    }

    /** A run's shell, and whether the holder held it already (no login this run). */
    record Taken(RemoteShell shell, boolean reused) {}
}
