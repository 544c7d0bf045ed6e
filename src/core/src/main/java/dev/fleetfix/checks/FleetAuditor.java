package dev.fleetfix.checks;

import dev.fleetfix.Counts;
import dev.fleetfix.Crash;
import dev.fleetfix.Forks;
import dev.fleetfix.Heartbeat;
import dev.fleetfix.Progress;
import dev.fleetfix.Sleeper;
import dev.fleetfix.inventory.Host;
import dev.fleetfix.redis.RedisConnector;
import dev.fleetfix.transport.RemoteShell;
import dev.fleetfix.transport.ShellFactory;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Audits many hosts, at most {@code forks} at once, and returns their audits in inventory order. A host
 * whose shell cannot even be opened is {@link HostVerdict#UNREACHABLE} with the transport's message.
 *
 * <p>Each host's shell is opened for its audit and closed as soon as that audit is done, so at most
 * {@code forks} connections (and their reader threads and buffers) are open at once, whatever the fleet's
 * size: an SSH connection held until the run ends costs a thread and buffers per host, which at hundreds of
 * hosts is most of the control node's memory (docs/performance.md#at-scale-20-to-500-hosts).
 */
public final class FleetAuditor {
    private final HostAuditor auditor;
    private final ShellFactory shells;
    private final RedisConnector redis;
    private final int forks;

    /**
     * @param shells opens a new shell to a host; the auditor owns each shell it opens and closes it
     */
    public FleetAuditor(HostAuditor auditor, ShellFactory shells, RedisConnector redis, int forks) {
        this.auditor = Objects.requireNonNull(auditor, "auditor");
        this.shells = Objects.requireNonNull(shells, "shells");
        this.redis = Objects.requireNonNull(redis, "redis");
        this.forks = Forks.checked(forks);
    }

    public List<HostAudit> audit(List<Host> hosts) {
        return audit(hosts, Progress.Listener.none(), Optional.empty());
    }

    /**
     * As {@link #audit(List)}, telling {@code progress} every {@link Progress#EVERY} (on {@code sleeper}'s time) how
     * many hosts are done and which it still waits for: a host that does not answer holds the audit for its connect
     * timeout, and no one should wonder meanwhile.
     */
    public List<HostAudit> audit(List<Host> hosts, Progress.Listener progress, Sleeper sleeper) {
        return audit(hosts, progress, Optional.of(sleeper));
    }

    private List<HostAudit> audit(List<Host> hosts, Progress.Listener progress, Optional<Sleeper> sleeper) {
        Set<String> pending = Collections.synchronizedSet(new LinkedHashSet<>());
        AtomicInteger done = new AtomicInteger();
        Runnable beat = () -> {
            List<String> now;
            int finished;
            synchronized (pending) { // one snapshot: a host is never both done and waited for
                now = List.copyOf(pending);
                finished = done.get();
            }
            String waiting = now.isEmpty()
                    ? ""
                    : "; waiting for " + String.join(", ", now.subList(0, Math.min(3, now.size())))
                            + (now.size() > 3 ? " and " + (now.size() - 3) + " more" : "");
            progress.progress(
                    new Progress("audit", finished + " of " + Counts.of(hosts.size(), "host") + " done" + waiting));
        };
        try (Heartbeat heartbeat =
                sleeper.map(s -> Heartbeat.start(s, Progress.EVERY, beat)).orElse(null)) {
            return audited(hosts, host -> {
                pending.add(host.name());
                try {
                    return auditOne(host);
                } finally {
                    synchronized (pending) {
                        pending.remove(host.name());
                        done.incrementAndGet();
                    }
                }
            });
        }
    }

    private List<HostAudit> audited(List<Host> hosts, java.util.function.Function<Host, HostAudit> one) {
        return Forks.run(hosts, forks, one::apply).stream()
                .map(outcome -> outcome.value()
                        .orElseGet(() -> HostAudit.unreachable(
                                outcome.input().name(), message(outcome.error().get()))))
                .toList();
    }

    private HostAudit auditOne(Host host) {
        RemoteShell shell = shells.open(host);
        try {
            return auditor.audit(host, shell, redis);
        } catch (Error e) {
            // a stack or heap exhausted (or a library gone wrong) on this host: it fails, the others go on
            return HostAudit.unreachable(host.name(), Crash.describe(e));
        } finally {
            closeQuietly(shell);
        }
    }

    // The audit is already complete when its shell is closed: a failure to say goodbye (a peer that hung up
    // first, say) changes nothing the user reads, so it must neither replace the verdict nor stop other hosts.
    private static void closeQuietly(RemoteShell shell) {
        try {
            shell.close();
        } catch (RuntimeException e) {
            // nothing to report: see above
        }
    }

    private static String message(RuntimeException e) {
        String message = e.getMessage();
        return message == null || message.isBlank() ? e.getClass().getSimpleName() : message;
    }
}
