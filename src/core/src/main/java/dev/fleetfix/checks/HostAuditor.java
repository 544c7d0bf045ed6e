package dev.fleetfix.checks;

import dev.fleetfix.inventory.Host;
import dev.fleetfix.redis.RedisConnector;
import dev.fleetfix.transport.Command;
import dev.fleetfix.transport.ExecResult;
import dev.fleetfix.transport.RemoteShell;
import dev.fleetfix.transport.TransportException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Audits one host: asks its Redis (one connection), then runs one fact script on the host (one round
 * trip), then judges the facts with {@link AuditRules}; where the script ran as root, a second command finds the
 * service that runs Redis ({@link ServiceDiscovery}).
 *
 * <p>Redis goes first so that its {@code process_id} tells the script whose smaps to read. The script
 * runs as root when the host has {@code become}, since another user's {@code /proc/PID/smaps_rollup}
 * is unreadable otherwise; when sudo refuses, it runs again as the login user and the huge-page fact is
 * reported as unknown. The shell is not closed here: it belongs to the caller's pool.
 */
public final class HostAuditor {
    public static final Duration DEFAULT_REDIS_TIMEOUT = Duration.ofSeconds(5);
    public static final Duration DEFAULT_EXEC_TIMEOUT = Duration.ofSeconds(30);

    private final Duration redisTimeout;
    private final Duration execTimeout;

    public HostAuditor() {
        this(DEFAULT_REDIS_TIMEOUT, DEFAULT_EXEC_TIMEOUT);
    }

    public HostAuditor(Duration redisTimeout, Duration execTimeout) {
        this.redisTimeout = Objects.requireNonNull(redisTimeout, "redisTimeout");
        this.execTimeout = Objects.requireNonNull(execTimeout, "execTimeout");
    }

    /**
     * The host's verdict, findings and facts. A host that cannot be reached (or whose fact script
     * fails) is {@link HostVerdict#UNREACHABLE} with the transport's message; this method does not throw
     * for one host's failure.
     */
    public HostAudit audit(Host host, RemoteShell shell, RedisConnector redis) {
        try {
            HostFacts facts = gather(host, shell, redis);
            return withService(AuditRules.judge(facts), host, shell, facts);
        } catch (TransportException | AuditException e) {
            return HostAudit.unreachable(host.name(), String.valueOf(e.getMessage()));
        }
    }

    /**
     * The audit with what runs the host's Redis as advice ("redis on :6379 (pid 812) run by systemd unit
     * redis_6379.service"), found as {@link ServiceDiscovery} finds it for the steps. Only where the fact script ran
     * as root: another user's process, its socket and its cgroup are hidden from the login user, and "nothing
     * listens" would then be a wrong claim.
     */
    private static HostAudit withService(HostAudit audit, Host host, RemoteShell shell, HostFacts facts) {
        if (!facts.root()) {
            return audit;
        }
        List<Finding> findings = new ArrayList<>(audit.findings());
        RedisFacts redis = facts.redis();
        RedisSelf self = new RedisSelf(
                host.redis().port(), Optional.empty(), redis.processId(), Optional.empty(), redis.error());
        for (RunningService service : ServiceDiscovery.discover(
                shell, host.redis().address(), List.of(host.redis().port()), self)) {
            findings.add(Finding.advice("redis-service", service.describe()));
        }
        return new HostAudit(audit.host(), audit.verdict(), findings, audit.facts());
    }

    /**
     * The facts alone, for callers that judge them their own way (the playbook's {@code audit} step).
     *
     * @throws TransportException when the host cannot be reached
     * @throws AuditException when the fact script fails
     */
    public HostFacts gather(Host host, RemoteShell shell, RedisConnector redis) {
        RedisFacts redisFacts = RedisProbe.probe(host, redis, redisTimeout);
        Command command = Command.of(FactScript.script(redisFacts.processId())).withTimeout(execTimeout);
        ExecResult result = shell.exec(host.become() ? command.asRoot() : command);
        if (host.become() && !complete(result)) {
            result = shell.exec(command);
        }
        if (!complete(result)) {
            throw new AuditException("host " + host.name() + ": the fact script failed (exit " + result.exitCode()
                    + "): " + result.errorText());
        }
        return FactScript.parse(host.name(), result.stdout(), redisFacts);
    }

    private static boolean complete(ExecResult result) {
        return result.ok() && result.stdout().contains(FactScript.MARKER + "end");
    }
}
