package dev.fleetfix.steps.restart;

import dev.fleetfix.redis.RedisException;
import dev.fleetfix.redis.RedisNode;
import dev.fleetfix.rollout.gate.GateTarget;
import dev.fleetfix.rollout.topology.NodeState;
import dev.fleetfix.rollout.topology.ReplicaLink;
import dev.fleetfix.steps.StepContext;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;

/**
 * {@code FAILOVER TO host port TIMEOUT ms} (Redis 6.2+, no Sentinel): Redis pauses writes on the
 * primary, waits until the target has every write, and swaps roles; past the timeout it aborts and
 * the primary stays primary. Then this waits until the old primary reports {@code role:slave} and
 * the new one accepts a write under {@code fleetfix:}, and rewrites both config files (CONFIG
 * REWRITE) so that a restart keeps the new roles instead of bringing back two primaries.
 */
final class Failover {
    private static final Duration CONNECT = Duration.ofSeconds(3);

    private final StepContext ctx;
    private final Poll poll;
    private final Duration timeout;

    Failover(StepContext ctx, Poll poll, Duration timeout) {
        this.ctx = ctx;
        this.poll = poll;
        this.timeout = timeout;
    }

    /** A failover ended early; the message says why. */
    private static final class Aborted extends RuntimeException {
        Aborted(String message) {
            super(message);
        }
    }

    /** Moves the primary role from {@code from} to {@code target}; empty when done. */
    Optional<String> failover(GateTarget.Connect from, String fromName, ReplicaLink target)
            throws InterruptedException {
        try (RedisNode p = from.open(CONNECT)) {
            p.command(
                    "FAILOVER",
                    "TO",
                    target.ip(),
                    Integer.toString(target.port()),
                    "TIMEOUT",
                    Long.toString(timeout.toMillis()));
        } catch (RedisException e) {
            return Optional.of("FAILOVER on " + fromName + ": " + e.getMessage());
        }
        GateTarget.Connect to = t -> ctx.primaries()
                .open(target.ip(), target.port(), t)
                .orElseThrow(() -> new RedisException(target.describe(), "not in the inventory", null));
        return settle(from, fromName, to, target.describe());
    }

    /** After the old primary's restart: makes it primary again, from {@code target}. */
    Optional<String> failback(StepContext ctx, ReplicaLink target) throws InterruptedException {
        GateTarget.Connect current = t -> ctx.primaries()
                .open(target.ip(), target.port(), t)
                .orElseThrow(() -> new RedisException(target.describe(), "not in the inventory", null));
        ReplicaLink self;
        try (RedisNode n = current.open(CONNECT)) {
            Optional<ReplicaLink> found =
                    NodeState.fromInfo(target.describe(), n.info("replication")).replicas().stream()
                            .filter(r -> r.port() == ctx.host().redis().port())
                            .filter(r -> r.ip().equals(ctx.host().redis().address())
                                    || r.ip().equals(ctx.host().address()))
                            .findFirst();
            if (found.isEmpty()) {
                return Optional.of(
                        target.describe() + " does not list " + ctx.host().name() + " as a replica");
            }
            self = found.get();
        } catch (RedisException e) {
            return Optional.of(e.getMessage());
        }
        try (RedisNode n = current.open(CONNECT)) {
            n.command(
                    "FAILOVER",
                    "TO",
                    self.ip(),
                    Integer.toString(self.port()),
                    "TIMEOUT",
                    Long.toString(timeout.toMillis()));
        } catch (RedisException e) {
            return Optional.of("FAILOVER on " + target.describe() + ": " + e.getMessage());
        }
        return settle(current, target.describe(), ctx.redis(), ctx.host().name());
    }

    private Optional<String> settle(GateTarget.Connect from, String fromName, GateTarget.Connect to, String toName)
            throws InterruptedException {
        Optional<String> demoted;
        try {
            demoted = poll.until(timeout, () -> {
                try (RedisNode p = from.open(CONNECT)) {
                    Map<String, String> repl = p.info("replication");
                    String role = repl.getOrDefault("role", "?");
                    String state = repl.getOrDefault("master_failover_state", "no-failover");
                    if (role.equals("slave") && state.equals("no-failover")) {
                        return Optional.empty();
                    }
                    if (role.equals("master") && state.equals("no-failover")) {
                        throw new Aborted(fromName + " is still primary: the failover was aborted (the target"
                                + " did not catch up within " + timeout.toSeconds() + "s)");
                    }
                    return Optional.of(fromName + " role:" + role + " master_failover_state:" + state);
                }
            });
        } catch (Aborted e) {
            return Optional.of(e.getMessage());
        }
        if (demoted.isPresent()) {
            return demoted;
        }
        Optional<String> writable = poll.until(timeout, () -> {
            try (RedisNode n = to.open(CONNECT)) {
                String role = n.info("replication").getOrDefault("role", "?");
                if (!role.equals("master")) {
                    return Optional.of(toName + " role:" + role);
                }
                String key = "fleetfix:failover:" + toName;
                Object reply = n.command("SET", key, ctx.runStamp(), "EX", "60");
                if (!"OK".equals(reply)) {
                    return Optional.of(toName + " answered SET with " + reply);
                }
                n.command("DEL", key);
                return Optional.empty();
            }
        });
        if (writable.isPresent()) {
            return Optional.of("new primary does not accept writes: " + writable.get());
        }
        for (var node : Map.of(fromName, from, toName, to).entrySet()) {
            try (RedisNode n = node.getValue().open(CONNECT)) {
                n.command("CONFIG", "REWRITE");
            } catch (RedisException e) {
                return Optional.of("CONFIG REWRITE on " + node.getKey() + ": " + e.getMessage()
                        + " (roles swapped at runtime only; a restart would bring back the old roles)");
            }
        }
        return Optional.empty();
    }
}
