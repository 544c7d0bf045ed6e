package dev.fleetfix.steps.restart.handover;

import dev.fleetfix.health.GateTarget;
import dev.fleetfix.redis.RedisException;
import dev.fleetfix.redis.RedisNode;
import dev.fleetfix.redis.ReplyFields;
import dev.fleetfix.redis.topology.ReplicaLink;
import dev.fleetfix.redis.topology.SentinelMaster;
import dev.fleetfix.steps.model.StepContext;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The Sentinel route: {@code SENTINEL FAILOVER name} makes one Sentinel
 * promote the replica it judges best; Sentinel later turns the old primary into a replica and
 * rewrites its config itself. A failback prefers this host by giving it the lowest
 * {@code replica-priority} for that one election, then restores the old value.
 */
record SentinelRoute(SentinelMaster master) implements Handover {
    /** The priority a failback gives this host, so that Sentinel elects it (lower wins; 0 never). */
    private static final String PREFERRED_PRIORITY = "1";

    SentinelRoute {
        Objects.requireNonNull(master, "master");
    }

    @Override
    public Route route() {
        return Route.SENTINEL;
    }

    @Override
    public Optional<ReplicaLink> target() {
        return Optional.empty();
    }

    @Override
    public String newPrimaryName() {
        return master.name();
    }

    @Override
    public String describe() {
        return "SENTINEL FAILOVER " + master.name();
    }

    @Override
    public Outcome away(RoleMoves moves) throws InterruptedException {
        StepContext ctx = moves.ctx();
        var poll = moves.poll();
        var timeout = moves.timeout();
        String self = ctx.host().name();
        String before = master.ip() + ":" + master.port();
        Optional<String> started = sentinelFailover(moves, master.name());
        if (started.isPresent()) {
            return Outcome.failed(started.get());
        }
        String[] now = new String[1];
        Optional<String> switched =
                poll.until("Sentinel to promote a replica of '" + master.name() + "'", timeout, () -> {
                    Optional<String> address = ctx.peers().sentinels().primaryAddress(master.name(), RoleMoves.CONNECT);
                    if (address.isPresent() && !address.get().equals(before)) {
                        now[0] = address.get();
                        return Optional.empty();
                    }
                    return Optional.of(
                            "Sentinel still names " + address.orElse("no primary") + " for '" + master.name() + "'");
                });
        if (switched.isPresent()) {
            return Outcome.failed("Sentinel did not promote a replica: " + switched.get());
        }
        String address = now[0];
        int colon = address.lastIndexOf(':');
        String ip = address.substring(0, colon);
        int port = Integer.parseInt(address.substring(colon + 1));
        Optional<GateTarget.Connect> to = Optional.empty();
        String name = address;
        try (RedisNode n =
                ctx.peers().primaries().open(ip, port, RoleMoves.CONNECT).orElse(null)) {
            if (n != null) {
                name = n.hostName() + " (" + address + ")";
                to = Optional.of(t -> ctx.peers()
                        .primaries()
                        .open(ip, port, t)
                        .orElseThrow(() -> new RedisException(address, "not in the inventory", null)));
            }
        } catch (RedisException e) {
            return Outcome.failed("Sentinel promoted " + address + ", which does not answer: " + e.getMessage());
        }
        Optional<String> settled = moves.settle(ctx.redis(), self, to, name, false);
        return settled.isPresent() ? Outcome.failed(settled.get()) : Outcome.done(new Moved(name, to));
    }

    /**
     * Failback through Sentinel: this host gets the lowest replica-priority until Sentinel has seen
     * it, Sentinel fails over, and the election must pick this host. The old priority is restored.
     */
    @Override
    public Optional<String> back(RoleMoves moves, Moved moved) throws InterruptedException {
        StepContext ctx = moves.ctx();
        var poll = moves.poll();
        var timeout = moves.timeout();
        String self = ctx.host().name();
        String mine = ctx.host().redis().address() + ":" + ctx.host().redis().port();
        String priority;
        try (RedisNode n = ctx.redis().open(RoleMoves.CONNECT)) {
            priority = n.configGet("replica-priority").orElse("100");
            n.command("CONFIG", "SET", "replica-priority", PREFERRED_PRIORITY);
        } catch (RedisException e) {
            return Optional.of("cannot set replica-priority on " + self + ": " + e.getMessage());
        }
        try {
            Optional<String> seen = poll.until(
                    "Sentinel to see " + self + " as a ready replica",
                    timeout,
                    () -> sentinelSeesPreferred(ctx, master.name(), mine));
            if (seen.isPresent()) {
                return Optional.of("Sentinel does not see " + self + " as a ready replica: " + seen.get());
            }
            Optional<String> started = sentinelFailover(moves, master.name());
            if (started.isPresent()) {
                return started;
            }
            Optional<String> elected = poll.until("Sentinel to elect " + self, timeout, () -> {
                Optional<String> address = ctx.peers().sentinels().primaryAddress(master.name(), RoleMoves.CONNECT);
                if (address.filter(mine::equals).isPresent()) {
                    return Optional.empty();
                }
                if (address.isPresent() && !moved.newPrimary().contains(address.get())) {
                    throw new RoleMoves.Aborted("Sentinel elected " + address.get() + ", not " + self);
                }
                return Optional.of("Sentinel still names " + address.orElse("no primary"));
            });
            if (elected.isPresent()) {
                return elected;
            }
            return moves.settle(
                    moved.connect().orElseThrow(), moved.newPrimary(), Optional.of(ctx.redis()), self, false);
        } catch (RoleMoves.Aborted e) {
            return Optional.of(e.getMessage());
        } finally {
            restorePriority(ctx, priority);
        }
    }

    private static Optional<String> sentinelSeesPreferred(StepContext ctx, String name, String mine) {
        return ctx.peers()
                .sentinels()
                .ask(RoleMoves.CONNECT, node -> {
                    Object reply = node.command("SENTINEL", "REPLICAS", name);
                    if (reply instanceof List<?> entries) {
                        for (Object entry : entries) {
                            Map<String, String> f = ReplyFields.of(entry);
                            if (mine.equals(f.get("ip") + ":" + f.get("port"))) {
                                boolean ready = PREFERRED_PRIORITY.equals(f.get("slave-priority"))
                                        && "ok".equals(f.get("master-link-status"))
                                        && !f.getOrDefault("flags", "").contains("down");
                                return ready
                                        ? Optional.<String>empty()
                                        : Optional.of("slave-priority " + f.get("slave-priority") + ", link "
                                                + f.get("master-link-status") + ", flags " + f.get("flags"));
                            }
                        }
                    }
                    return Optional.of(mine + " not among its replicas yet");
                })
                .value();
    }

    private static void restorePriority(StepContext ctx, String priority) {
        try (RedisNode n = ctx.redis().open(RoleMoves.CONNECT)) {
            n.command("CONFIG", "SET", "replica-priority", priority);
            n.command("CONFIG", "REWRITE");
        } catch (RedisException e) {
            // Left at the preferred priority: this host is merely favoured in later elections.
        }
    }

    /**
     * {@code SENTINEL FAILOVER name}, retried while Sentinel has no suitable replica yet (it refreshes
     * replica state every few seconds) or another failover is in progress.
     */
    private static Optional<String> sentinelFailover(RoleMoves moves, String name) throws InterruptedException {
        StepContext ctx = moves.ctx();
        Optional<String> sent = moves.poll()
                .until("Sentinel to accept SENTINEL FAILOVER " + name, moves.timeout(), () -> {
                    try {
                        Object reply = ctx.peers()
                                .sentinels()
                                .ask(RoleMoves.CONNECT, node -> node.command("SENTINEL", "FAILOVER", name))
                                .value();
                        return "OK".equals(reply)
                                ? Optional.empty()
                                : Optional.of("SENTINEL FAILOVER answered " + reply);
                    } catch (RedisException e) {
                        if (e.getMessage().contains("NOGOODSLAVE")
                                || e.getMessage().contains("INPROG")) {
                            return Optional.of(e.getMessage());
                        }
                        throw new RoleMoves.Aborted("SENTINEL FAILOVER " + name + ": " + e.getMessage());
                    }
                });
        return sent.map(s -> "SENTINEL FAILOVER " + name + ": " + s);
    }
}
