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
 * Audits one host: asks its Redis (one connection), then runs one script on the host (one round trip), then judges
 * the facts with {@link AuditRules}. Where the host has {@code become}, that one script also finds the service that
 * runs Redis ({@link ServiceDiscovery}): the fact script and the discovery script in one trip ({@link #FIRST_LINE}).
 *
 * <p>Redis's INFO server goes first so that its {@code process_id} tells the script whose smaps to read; the script
 * then runs on the host while Redis is asked the rest ({@link SideCommand}). The script
 * runs as root when the host has {@code become}, since another user's {@code /proc/PID/smaps_rollup}
 * is unreadable otherwise; when sudo refuses, it runs again as the login user and the huge-page fact is
 * reported as unknown. The shell is not closed here: it belongs to the caller's pool.
 */
public final class HostAuditor {
    public static final Duration DEFAULT_REDIS_TIMEOUT = Duration.ofSeconds(5);
    public static final Duration DEFAULT_EXEC_TIMEOUT = Duration.ofSeconds(30);

    /** The first line of the one-trip script (facts, then the services), so that a fake host can recognise it. */
    public static final String FIRST_LINE = "# fleetfix: the host's facts, then the service of its Redis";

    /** The line between the two parts of the one-trip script's output. */
    public static final String SERVICES_MARKER = FactScript.MARKER + "services";

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
        return read(host, shell, redis).audit();
    }

    /**
     * An audit and the service found on the host's Redis port in the same trip.
     *
     * @param service what runs the host's Redis, where the script ran as root; empty where it did not (no
     *     {@code become}, sudo refused) or the host could not be read
     */
    public record HostRead(HostAudit audit, Optional<RunningService> service) {}

    /** As {@link #audit}, with the service it found ({@link HostRead}). */
    public HostRead read(Host host, RemoteShell shell, RedisConnector redis) {
        try {
            RedisProbe.Probed probed;
            Optional<HostRead> asRoot = Optional.empty();
            if (host.become()) {
                // the script needs only what INFO server says: it runs on the host while Redis is asked the rest
                SideCommand script = new SideCommand(shell);
                try {
                    probed = RedisProbe.read(host, redis, redisTimeout, self -> script.start(oneTrip(host, self)));
                } finally {
                    script.awaitQuietly(); // never leave it running behind a failure
                }
                asRoot = readInOneTrip(host, script.result(), probed);
            } else {
                probed = RedisProbe.read(host, redis, redisTimeout);
            }
            if (asRoot.isPresent()) {
                return asRoot.get();
            }
            return new HostRead(AuditRules.judge(facts(host, shell, probed.facts(), false)), Optional.empty());
        } catch (TransportException | AuditException e) {
            return new HostRead(HostAudit.unreachable(host.name(), String.valueOf(e.getMessage())), Optional.empty());
        }
    }

    /**
     * The audit from one script run as root: the facts, then what runs the host's Redis as advice ("redis on :6379
     * (pid 812) run by systemd unit redis_6379.service"), found as {@link ServiceDiscovery} finds it for the steps.
     * Empty when the script did not run as root to its end (sudo refused): the caller reads the facts as the login
     * user, without the service, since another user's process, its socket and its cgroup are hidden from the login
     * user and "nothing listens" would then be a wrong claim.
     */
    private Command oneTrip(Host host, RedisSelf self) {
        int port = host.redis().port();
        String script = FIRST_LINE + "\n(\n" + FactScript.script(self.pid()) + "\n)\necho '" + SERVICES_MARKER
                + "'\n(\n" + ServiceDiscovery.script(host.redis().address(), List.of(port), self) + "\n)\n";
        return Command.of(script).asRoot().withTimeout(execTimeout.plus(ServiceDiscovery.TIMEOUT));
    }

    private Optional<HostRead> readInOneTrip(Host host, ExecResult result, RedisProbe.Probed probed) {
        RedisFacts redisFacts = probed.facts();
        RedisSelf self = probed.self();
        int port = host.redis().port();
        int split = result.stdout().indexOf("\n" + SERVICES_MARKER + "\n");
        String factPart = split < 0 ? result.stdout() : result.stdout().substring(0, split + 1);
        if (!factPart.contains(FactScript.MARKER + "end")) {
            return Optional.empty();
        }
        HostFacts facts = FactScript.parse(host.name(), factPart, redisFacts);
        HostAudit audit = AuditRules.judge(facts);
        if (!facts.root()) {
            return Optional.of(new HostRead(audit, Optional.empty()));
        }
        String servicePart = split < 0 ? "" : result.stdout().substring(split + SERVICES_MARKER.length() + 2);
        ExecResult services = new ExecResult(result.exitCode(), servicePart, result.stderr(), result.duration());
        RunningService service = ServiceDiscovery.read(services, host.redis().address(), List.of(port), self)
                .get(0);
        List<Finding> findings = new ArrayList<>(audit.findings());
        findings.add(Finding.advice("redis-service", service.describe()));
        return Optional.of(new HostRead(
                new HostAudit(audit.host(), audit.verdict(), findings, audit.facts()), Optional.of(service)));
    }

    /**
     * The facts alone, for callers that judge them their own way (the playbook's {@code audit} step).
     *
     * @throws TransportException when the host cannot be reached
     * @throws AuditException when the fact script fails
     */
    public HostFacts gather(Host host, RemoteShell shell, RedisConnector redis) {
        RedisFacts redisFacts = RedisProbe.probe(host, redis, redisTimeout);
        return facts(host, shell, redisFacts, host.become());
    }

    /** The fact script's facts: first as root when {@code asRoot} (sudo may refuse), else as the login user. */
    private HostFacts facts(Host host, RemoteShell shell, RedisFacts redisFacts, boolean asRoot) {
        Command command = Command.of(FactScript.script(redisFacts.processId())).withTimeout(execTimeout);
        ExecResult result = shell.exec(asRoot ? command.asRoot() : command);
        if (asRoot && !complete(result)) {
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
