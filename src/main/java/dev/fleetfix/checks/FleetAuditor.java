package dev.fleetfix.checks;

import dev.fleetfix.Forks;
import dev.fleetfix.inventory.Host;
import dev.fleetfix.redis.RedisConnector;
import dev.fleetfix.transport.RemoteShell;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;

/**
 * Audits many hosts, at most {@code forks} at once, and returns their audits in inventory order. A host
 * whose shell cannot even be opened is {@link HostVerdict#UNREACHABLE} with the transport's message.
 */
public final class FleetAuditor {
    private final HostAuditor auditor;
    private final Function<Host, RemoteShell> shells;
    private final RedisConnector redis;
    private final int forks;

    /**
     * @param shells gives the shell of a host; it stays open (a {@code ShellPool}'s {@code shell} method)
     */
    public FleetAuditor(HostAuditor auditor, Function<Host, RemoteShell> shells, RedisConnector redis, int forks) {
        this.auditor = Objects.requireNonNull(auditor, "auditor");
        this.shells = Objects.requireNonNull(shells, "shells");
        this.redis = Objects.requireNonNull(redis, "redis");
        if (forks < 1) {
            throw new IllegalArgumentException("forks must be at least 1, was " + forks);
        }
        this.forks = forks;
    }

    public List<HostAudit> audit(List<Host> hosts) {
        return Forks.run(hosts, forks, (Host host) -> auditor.audit(host, shells.apply(host), redis)).stream()
                .map(outcome -> outcome.value()
                        .orElseGet(() -> HostAudit.unreachable(
                                outcome.input().name(), message(outcome.error().get()))))
                .toList();
    }

    private static String message(RuntimeException e) {
        String message = e.getMessage();
        return message == null || message.isBlank() ? e.getClass().getSimpleName() : message;
    }
}
