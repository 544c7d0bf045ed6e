package dev.fleetfix.checks;

import dev.fleetfix.Crash;
import dev.fleetfix.Forks;
import dev.fleetfix.inventory.Host;
import dev.fleetfix.redis.RedisConnector;
import dev.fleetfix.transport.RemoteShell;
import dev.fleetfix.transport.ShellFactory;
import java.util.List;
import java.util.Objects;

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
        if (forks < 1) {
            throw new IllegalArgumentException("forks must be at least 1, was " + forks);
        }
        this.forks = forks;
    }

    public List<HostAudit> audit(List<Host> hosts) {
        return Forks.run(hosts, forks, this::auditOne).stream()
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
