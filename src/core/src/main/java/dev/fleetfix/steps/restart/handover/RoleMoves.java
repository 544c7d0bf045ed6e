package dev.fleetfix.steps.restart.handover;

import dev.fleetfix.health.GateTarget;
import dev.fleetfix.health.Poll;
import dev.fleetfix.redis.RedisException;
import dev.fleetfix.redis.RedisNode;
import dev.fleetfix.redis.topology.NodeState;
import dev.fleetfix.redis.topology.ReplicaLink;
import dev.fleetfix.steps.model.StepContext;
import dev.fleetfix.steps.restart.handover.Handover.Moved;
import dev.fleetfix.steps.restart.handover.Handover.Outcome;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * What every {@link Handover} route does with the host and its replicas: open them, send a command, and wait until a
 * move settled. One per restart: the host's context, the poll and the step's bound on each wait.
 */
public final class RoleMoves {
    static final Duration CONNECT = Duration.ofSeconds(3);

    private final StepContext ctx;
    private final Poll poll;
    private final Duration timeout;

    public RoleMoves(StepContext ctx, Poll poll, Duration timeout) {
        this.ctx = ctx;
        this.poll = poll;
        this.timeout = timeout;
    }

    /** A move ended early; the message says why. */
    static final class Aborted extends RuntimeException {
        Aborted(String message) {
            super(message);
        }
    }

    StepContext ctx() {
        return ctx;
    }

    Poll poll() {
        return poll;
    }

    Duration timeout() {
        return timeout;
    }

    /** This host's inventory name. */
    String self() {
        return ctx.host().name();
    }

    /** Done with {@code to} the new primary, unless {@code error} says why not. */
    static Outcome moved(Optional<String> error, ReplicaLink target, GateTarget.Connect to) {
        return error.map(Outcome::failed).orElseGet(() -> Outcome.done(new Moved(target.describe(), Optional.of(to))));
    }

    /** The replica, opened through the inventory. */
    GateTarget.Connect open(ReplicaLink target) {
        return t -> ctx.peers()
                .primaries()
                .open(target.ip(), target.port(), t)
                .orElseThrow(() -> new RedisException(target.describe(), "not in the inventory", null));
    }

    static Optional<String> send(GateTarget.Connect node, String name, String command, String... args) {
        try (RedisNode n = node.open(CONNECT)) {
            n.command(command, args);
            return Optional.empty();
        } catch (RedisException e) {
            return Optional.of(command + (args.length > 0 && !args[0].equals("TO") ? " " + args[0] : "") + " on " + name
                    + ": " + e.getMessage());
        }
    }

    /** The replica entry under which {@code primary} lists this host. */
    Optional<ReplicaLink> selfAsListedBy(GateTarget.Connect primary, String primaryName) {
        try (RedisNode n = primary.open(CONNECT)) {
            return NodeState.fromInfo(primaryName, n.info("replication")).replicas().stream()
                    .filter(r -> r.port() == ctx.host().redis().port())
                    .filter(r -> r.ip().equals(ctx.host().redis().address())
                            || r.ip().equals(ctx.host().address()))
                    .findFirst();
        } catch (RedisException e) {
            return Optional.empty();
        }
    }

    /**
     * Waits until {@code from} reports {@code role:slave} and {@code to} accepts a write, then (for
     * FAILOVER) rewrites both configs. {@code viaFailoverCommand} also reads FAILOVER's own state,
     * to tell an aborted failover from a slow one.
     */
    Optional<String> settle(
            GateTarget.Connect from,
            String fromName,
            Optional<GateTarget.Connect> to,
            String toName,
            boolean viaFailoverCommand)
            throws InterruptedException {
        Optional<String> demoted;
        try {
            demoted = poll.until(
                    fromName + " to become a replica", timeout, () -> demoted(from, fromName, viaFailoverCommand));
        } catch (Aborted e) {
            return Optional.of(e.getMessage());
        }
        if (demoted.isPresent()) {
            return demoted;
        }
        if (to.isPresent()) {
            Optional<String> writable =
                    poll.until(toName + " to accept writes", timeout, () -> acceptsWrite(to.get(), toName));
            if (writable.isPresent()) {
                return Optional.of("new primary does not accept writes: " + writable.get());
            }
        }
        if (!viaFailoverCommand) {
            return Optional.empty();
        }
        Map<String, GateTarget.Connect> both = new LinkedHashMap<>();
        both.put(fromName, from);
        both.put(toName, to.orElseThrow());
        return rewriteConfigs(both, "roles swapped at runtime only; a restart would bring back the old roles");
    }

    /**
     * CONFIG REWRITE on each node, so that the roles they have now survive a restart; empty when done, else which
     * node refused and {@code unsaved}, what that leaves.
     */
    public static Optional<String> rewriteConfigs(Map<String, GateTarget.Connect> nodes, String unsaved) {
        for (var node : nodes.entrySet()) {
            try (RedisNode n = node.getValue().open(CONNECT)) {
                n.command("CONFIG", "REWRITE");
            } catch (RedisException e) {
                return Optional.of("CONFIG REWRITE on " + node.getKey() + ": " + e.getMessage() + " (" + unsaved + ")");
            }
        }
        return Optional.empty();
    }

    private Optional<String> demoted(GateTarget.Connect from, String fromName, boolean viaFailoverCommand) {
        try (RedisNode p = from.open(CONNECT)) {
            Map<String, String> repl = p.info("replication");
            String role = repl.getOrDefault("role", "?");
            String state = repl.getOrDefault("master_failover_state", "no-failover");
            if (role.equals("slave") && state.equals("no-failover")) {
                return Optional.empty();
            }
            if (viaFailoverCommand && role.equals("master") && state.equals("no-failover")) {
                throw new Aborted(fromName + " is still primary: the failover was aborted (the target"
                        + " did not catch up within " + timeout.toSeconds() + "s)");
            }
            return Optional.of(fromName + " role:" + role + " master_failover_state:" + state);
        }
    }

    private Optional<String> acceptsWrite(GateTarget.Connect to, String toName) {
        try (RedisNode n = to.open(CONNECT)) {
            String role = n.info("replication").getOrDefault("role", "?");
            if (!role.equals("master")) {
                return Optional.of(toName + " role:" + role);
            }
            Optional<String> key =
                    ClusterKeys.servedBy(n, "fleetfix:failover:" + ctx.host().name());
            if (key.isEmpty()) {
                return Optional.of(toName + " serves no slot yet");
            }
            Object reply = n.command("SET", key.get(), ctx.run().stamp(), "EX", "60");
            if (!"OK".equals(reply)) {
                return Optional.of(toName + " answered SET with " + reply);
            }
            n.command("DEL", key.get());
            return Optional.empty();
        }
    }
}
