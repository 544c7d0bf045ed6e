package dev.fleetfix.steps.restart;

import dev.fleetfix.inventory.Host;
import dev.fleetfix.redis.RedisException;
import dev.fleetfix.redis.RedisNode;
import dev.fleetfix.redis.topology.NodeRole;
import dev.fleetfix.redis.topology.NodeState;
import dev.fleetfix.redis.topology.ReplicaLink;
import dev.fleetfix.steps.model.StepContext;
import dev.fleetfix.transport.ExecResult;
import dev.fleetfix.transport.ScriptResource;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What the restart decides from, read just before it: the host's Redis ({@link RedisSnapshot}) with the inventory
 * host of each replica fleetfix can open, and what the inventory's Sentinels say of it ({@link SentinelStatus}).
 */
final class SnapshotReader {
    private static final Duration CONNECT = Duration.ofSeconds(3);
    private static final String LISTENING = ScriptResource.read(SnapshotReader.class, "listening.sh");

    private SnapshotReader() {}

    /** @param probe how the service that runs Redis is read: its state, its files */
    static RedisSnapshot read(StepContext ctx, ServiceProbe probe) {
        return withInventoryHosts(ctx, snapshot(ctx, probe));
    }

    /** What the inventory's Sentinels say about this host, when it is a primary outside a cluster. */
    static SentinelStatus sentinelStatus(StepContext ctx, RedisSnapshot s) {
        if (!ctx.peers().sentinels().named() || s.role() != NodeRole.PRIMARY || s.cluster()) {
            return SentinelStatus.NONE;
        }
        Host h = ctx.host();
        try {
            return ctx.peers().sentinels().masters(CONNECT).value().stream()
                    .filter(m -> m.at(h.redis().address(), h.redis().port())
                            || m.at(h.address(), h.redis().port()))
                    .findFirst()
                    .map(SentinelStatus::managedAs)
                    .orElse(SentinelStatus.unmanaged());
        } catch (RedisException e) {
            return SentinelStatus.unknown(e.detail());
        }
    }

    private static RedisSnapshot snapshot(StepContext ctx, ServiceProbe probe) {
        try (RedisNode node = ctx.redis().open(CONNECT)) {
            return RedisSnapshot.observe(ctx.host().name(), node, probe.persistence(ctx.shell()));
        } catch (RedisException e) {
            if (e.kind() == RedisException.Kind.AUTH) {
                return RedisSnapshot.credentialsRefused(ctx.host().name(), e.detail());
            }
            if (e.kind() == RedisException.Kind.MAX_CLIENTS) {
                return RedisSnapshot.serverFull(ctx.host().name(), e.detail());
            }
            if (e.kind() != RedisException.Kind.CONNECTION_REFUSED) {
                return RedisSnapshot.unknown(ctx.host().name(), e.detail());
            }
            return whyNotRunning(ctx, probe, e.detail());
        }
    }

    /**
     * A refused connection proves only that nothing listens at that address. Redis is down when its
     * unit is inactive and nothing listens on its port at any address; else it may run elsewhere,
     * with data.
     */
    private static RedisSnapshot whyNotRunning(StepContext ctx, ServiceProbe probe, String refused) {
        int port = ctx.host().redis().port();
        String address = ctx.host().redis().address();
        String unit = probe.unit();
        ExecResult r = ctx.shell()
                .exec(probe.stateCommand(processScript(probe.state(), address, port))
                        .withTimeout(Duration.ofSeconds(20)));
        Map<String, String> seen = new HashMap<>();
        for (String line : r.stdout().split("\n")) {
            int eq = line.indexOf('=');
            if (eq > 0) {
                seen.put(line.substring(0, eq).strip(), line.substring(eq + 1).strip());
            }
        }
        String state = seen.getOrDefault("unit", "");
        String listening = seen.getOrDefault("listening", "");
        String host = ctx.host().name();
        if ((state.equals("inactive") || state.equals("failed")) && listening.equals("0")) {
            return RedisSnapshot.down(
                    host, refused + "; unit " + unit + " is " + state + " and nothing listens on port " + port);
        }
        return RedisSnapshot.unknown(
                host,
                refused + ", but unit " + unit + " is " + (state.isEmpty() ? "of unknown state" : state) + " and "
                        + (listening.isEmpty() ? "an unknown number of" : listening) + " sockets listen on port "
                        + port);
    }

    /**
     * {@code unit=active} (the service's state on systemd or SysV init, see {@link ServiceRestart#stateScript}) and
     * {@code listening=N} ({@code listening.sh}): sockets listening on the port at Redis's address or a wildcard one.
     * When the address is a name rather than an IP, every listener on the port counts, since which IP it is cannot
     * be told here.
     */
    static String processScript(String state, String address, int port) {
        String ip = address.matches("[0-9.]+|[0-9a-fA-F:]+") ? address : "";
        return "echo unit=$(\n" + state + "\n)\n"
                + ScriptResource.assign("ip", ip)
                + ScriptResource.assign("port", Integer.toString(port))
                + LISTENING;
    }

    /** Names the inventory host of each replica fleetfix can open (only those are failover targets). */
    private static RedisSnapshot withInventoryHosts(StepContext ctx, RedisSnapshot s) {
        if (s.replicas().isEmpty()) {
            return s;
        }
        List<ReplicaLink> named = new ArrayList<>();
        for (ReplicaLink r : s.replicas()) {
            named.add(r.withHost(inventoryName(ctx, r)));
        }
        var repl = s.replication();
        return new RedisSnapshot(
                s.answered(),
                s.down(),
                new NodeState(
                        repl.host(),
                        repl.role(),
                        repl.primaryAddress(),
                        repl.primary(),
                        repl.linkUp(),
                        repl.offset(),
                        named,
                        repl.error()),
                s.masterHost(),
                s.masterPort(),
                s.persistence(),
                s.version(),
                s.keyspace(),
                s.cluster());
    }

    private static Optional<String> inventoryName(StepContext ctx, ReplicaLink r) {
        try {
            Optional<RedisNode> node = ctx.peers().primaries().open(r.ip(), r.port(), CONNECT);
            if (node.isPresent()) {
                try (RedisNode n = node.get()) {
                    return Optional.of(n.hostName());
                }
            }
            return Optional.empty();
        } catch (RedisException e) {
            return Optional.empty();
        }
    }
}
