package dev.fleetfix.steps.restart;

import dev.fleetfix.health.GateTarget;
import dev.fleetfix.health.Poll;
import dev.fleetfix.redis.RedisException;
import dev.fleetfix.redis.RedisNode;
import dev.fleetfix.redis.topology.NodeState;
import dev.fleetfix.redis.topology.ReplicaLink;
import dev.fleetfix.steps.model.StepContext;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Moves a host's primary role to a replica before its restart, and back after it when asked, by
 * the {@link Handover} route:
 *
 * <ul>
 *   <li>{@code FAILOVER TO host port TIMEOUT ms} (Redis 6.2+): Redis pauses writes on the primary,
 *       waits until the target has every write and swaps roles; past the timeout it aborts and the
 *       primary stays primary. Both config files are then rewritten (CONFIG REWRITE) so that a
 *       restart keeps the new roles.
 *   <li>by hand (Redis 3.0 to 6.0, or {@code failover: manual}): see {@link ManualRoute}.
 *   <li>{@code SENTINEL FAILOVER name}: see {@link SentinelRoute}.
 *   <li>{@code CLUSTER FAILOVER} on the replica: it waits for the primary's last writes, takes its
 *       slots, and the old primary follows it; the cluster saves its own nodes.conf.
 * </ul>
 *
 * Each ends when the old primary reports {@code role:slave} and the new one accepts a write under
 * {@code fleetfix:} (in cluster mode, a key in a slot it serves).
 */
final class Failover {
    static final Duration CONNECT = Duration.ofSeconds(3);
    /** Longer than Redis's own manual failover timeout (5 s), after which it gives up silently. */
    private static final Duration CLUSTER_FAILOVER_RETRY = Duration.ofSeconds(6);

    private final StepContext ctx;
    private final Poll poll;
    private final Duration timeout;

    Failover(StepContext ctx, Poll poll, Duration timeout) {
        this.ctx = ctx;
        this.poll = poll;
        this.timeout = timeout;
    }

    /** A failover ended early; the message says why. */
    static final class Aborted extends RuntimeException {
        Aborted(String message) {
            super(message);
        }
    }

    /** The primary role moved; to whom. */
    record Moved(String newPrimary, Optional<GateTarget.Connect> connect) {}

    /** The outcome of a move: where the role went, or why it did not. */
    record Outcome(Optional<Moved> moved, Optional<String> error) {
        static Outcome failed(String why) {
            return new Outcome(Optional.empty(), Optional.of(why));
        }

        /** Nothing to move (the restart needs no failover), or it was saved instead. */
        static Outcome stayed() {
            return new Outcome(Optional.empty(), Optional.empty());
        }

        static Outcome done(Moved moved) {
            return new Outcome(Optional.of(moved), Optional.empty());
        }
    }

    /** Hands this host's primary role over. */
    Outcome away(Handover handover) throws InterruptedException {
        String self = ctx.host().name();
        return switch (handover.route()) {
            case FAILOVER -> {
                ReplicaLink target = handover.target().orElseThrow();
                Optional<String> sent = send(ctx.redis(), self, "FAILOVER", failoverTo(target));
                if (sent.isPresent()) {
                    yield Outcome.failed(sent.get());
                }
                GateTarget.Connect to = open(target);
                yield settle(ctx.redis(), self, Optional.of(to), target.describe(), true)
                        .map(Outcome::failed)
                        .orElseGet(() -> Outcome.done(new Moved(target.describe(), Optional.of(to))));
            }
            case CLUSTER -> {
                ReplicaLink target = handover.target().orElseThrow();
                GateTarget.Connect to = open(target);
                Optional<String> taken = clusterTakeover(to, target.describe());
                if (taken.isPresent()) {
                    yield Outcome.failed(taken.get());
                }
                yield settle(ctx.redis(), self, Optional.of(to), target.describe(), false)
                        .map(Outcome::failed)
                        .orElseGet(() -> Outcome.done(new Moved(target.describe(), Optional.of(to))));
            }
            case MANUAL -> {
                ReplicaLink target = handover.target().orElseThrow();
                GateTarget.Connect to = open(target);
                yield new ManualRoute(ctx, poll, this)
                        .move(ctx.redis(), self, target, to, target.describe())
                        .map(Outcome::failed)
                        .orElseGet(() -> Outcome.done(new Moved(target.describe(), Optional.of(to))));
            }
            case SENTINEL -> new SentinelRoute(ctx, poll, timeout, this)
                    .away(handover.sentinel().orElseThrow());
        };
    }

    /** After the old primary's restart: makes it primary again. */
    Optional<String> back(Handover handover, Moved moved) throws InterruptedException {
        String self = ctx.host().name();
        GateTarget.Connect current =
                moved.connect().orElseThrow(() -> new IllegalStateException("no connection to " + moved.newPrimary()));
        return switch (handover.route()) {
            case FAILOVER -> {
                Optional<ReplicaLink> me = selfAsListedBy(current, moved.newPrimary());
                if (me.isEmpty()) {
                    yield Optional.of(moved.newPrimary() + " does not list " + self + " as a replica");
                }
                // The restarted node says its link is up once it has loaded the primary's data; the primary calls it
                // online only at its first acknowledgement, up to a second later, and FAILOVER refuses a target that
                // is not online ("ERR FAILOVER target replica is not online"): wait for the primary's own word.
                Optional<String> notOnline =
                        poll.until(moved.newPrimary() + " to list " + self + " as an online replica", timeout, () -> {
                            Optional<ReplicaLink> listed = selfAsListedBy(current, moved.newPrimary());
                            if (listed.isEmpty()) {
                                return Optional.of(self + " not listed");
                            }
                            ReplicaLink link = listed.get();
                            return link.online(RestartDecision.MAX_LAG_SECONDS)
                                    ? Optional.empty()
                                    : Optional.of("state=" + link.state() + " lag=" + link.lag() + "s");
                        });
                if (notOnline.isPresent()) {
                    yield Optional.of(notOnline.get());
                }
                me = selfAsListedBy(current, moved.newPrimary());
                if (me.isEmpty()) {
                    yield Optional.of(moved.newPrimary() + " does not list " + self + " as a replica");
                }
                Optional<String> sent = send(current, moved.newPrimary(), "FAILOVER", failoverTo(me.get()));
                yield sent.isPresent()
                        ? sent
                        : settle(current, moved.newPrimary(), Optional.of(ctx.redis()), self, true);
            }
            case CLUSTER -> {
                Optional<String> taken = clusterTakeover(ctx.redis(), self);
                yield taken.isPresent()
                        ? taken
                        : settle(current, moved.newPrimary(), Optional.of(ctx.redis()), self, false);
            }
            case MANUAL -> {
                Optional<ReplicaLink> me = selfAsListedBy(current, moved.newPrimary());
                if (me.isEmpty()) {
                    yield Optional.of(moved.newPrimary() + " does not list " + self + " as a replica");
                }
                yield new ManualRoute(ctx, poll, this).move(current, moved.newPrimary(), me.get(), ctx.redis(), self);
            }
            case SENTINEL -> new SentinelRoute(ctx, poll, timeout, this)
                    .back(handover.sentinel().orElseThrow(), moved);
        };
    }

    /**
     * {@code CLUSTER FAILOVER} on a replica until it reports {@code role:master}. Right after a
     * node's restart the other primaries have not reconnected to it: they grant their votes but
     * cannot deliver them, the election gets no majority and Redis drops it after 5 s. So the
     * command waits until every voting primary has a link to the replica, and is sent again (after
     * Redis's own retry delay, twice the node timeout) while the step's timeout allows.
     */
    private Optional<String> clusterTakeover(GateTarget.Connect replica, String name) throws InterruptedException {
        Optional<String> linked = poll.until("the voting primaries to link to " + name, timeout, () -> {
            try (RedisNode n = replica.open(CONNECT)) {
                return ClusterKeys.votersWithoutLink(n);
            }
        });
        if (linked.isPresent()) {
            return Optional.of(
                    "CLUSTER FAILOVER on " + name + ": the voting primaries cannot reach it: " + linked.get());
        }
        Duration retry;
        try (RedisNode n = replica.open(CONNECT)) {
            long nodeTimeout = n.configGet("cluster-node-timeout")
                    .map(v -> Long.parseLong(v.strip()))
                    .orElse(15_000L);
            retry = Duration.ofMillis(Math.max(CLUSTER_FAILOVER_RETRY.toMillis(), 2 * nodeTimeout + 1000));
        } catch (RedisException | NumberFormatException e) {
            retry = Duration.ofSeconds(31);
        }
        Duration every = retry;
        Instant[] sent = new Instant[1];
        int[] attempts = new int[1];
        Optional<String> promoted = poll.until(name + " to become primary (CLUSTER FAILOVER)", timeout, () -> {
            try (RedisNode n = replica.open(CONNECT)) {
                String role = n.info("replication").getOrDefault("role", "?");
                if (role.equals("master")) {
                    return Optional.empty();
                }
                Instant now = ctx.clock().instant();
                if (sent[0] == null || Duration.between(sent[0], now).compareTo(every) >= 0) {
                    n.command("CLUSTER", "FAILOVER");
                    sent[0] = now;
                    attempts[0]++;
                }
                return Optional.of(name + " role:" + role + " after " + attempts[0] + " CLUSTER FAILOVER");
            }
        });
        return promoted.map(why -> "CLUSTER FAILOVER on " + name + ": " + why);
    }

    private GateTarget.Connect open(ReplicaLink target) {
        return t -> ctx.primaries()
                .open(target.ip(), target.port(), t)
                .orElseThrow(() -> new RedisException(target.describe(), "not in the inventory", null));
    }

    private String[] failoverTo(ReplicaLink target) {
        return new String[] {
            "TO", target.ip(), Integer.toString(target.port()), "TIMEOUT", Long.toString(timeout.toMillis())
        };
    }

    private static Optional<String> send(GateTarget.Connect node, String name, String command, String... args) {
        try (RedisNode n = node.open(CONNECT)) {
            n.command(command, args);
            return Optional.empty();
        } catch (RedisException e) {
            return Optional.of(command + (args.length > 0 && !args[0].equals("TO") ? " " + args[0] : "") + " on " + name
                    + ": " + e.getMessage());
        }
    }

    /** The replica entry under which {@code primary} lists this host. */
    private Optional<ReplicaLink> selfAsListedBy(GateTarget.Connect primary, String primaryName) {
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
            demoted = poll.until(fromName + " to become a replica", timeout, () -> {
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
            });
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
        for (var node : both.entrySet()) {
            try (RedisNode n = node.getValue().open(CONNECT)) {
                n.command("CONFIG", "REWRITE");
            } catch (RedisException e) {
                return Optional.of("CONFIG REWRITE on " + node.getKey() + ": " + e.getMessage()
                        + " (roles swapped at runtime only; a restart would bring back the old roles)");
            }
        }
        return Optional.empty();
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
            Object reply = n.command("SET", key.get(), ctx.runStamp(), "EX", "60");
            if (!"OK".equals(reply)) {
                return Optional.of(toName + " answered SET with " + reply);
            }
            n.command("DEL", key.get());
            return Optional.empty();
        }
    }
}
