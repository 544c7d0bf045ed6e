package dev.fleetfix.steps.restart;

import dev.fleetfix.health.GateTarget;
import dev.fleetfix.health.Poll;
import dev.fleetfix.health.Wait;
import dev.fleetfix.inventory.Host;
import dev.fleetfix.redis.RedisException;
import dev.fleetfix.redis.RedisNode;
import dev.fleetfix.redis.topology.NodeRole;
import dev.fleetfix.redis.topology.ReplicaLink;
import dev.fleetfix.steps.model.StepContext;
import dev.fleetfix.steps.model.StepResult;
import dev.fleetfix.steps.restart.RestartDecision.Kind;
import dev.fleetfix.transport.Command;
import dev.fleetfix.transport.ExecResult;
import dev.fleetfix.transport.ShellQuote;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Restarts one host's Redis without losing data: decides how ({@link RestartDecision}), fails the
 * primary over or saves it first, restarts, waits until Redis is back (as a synced replica after a
 * failover), checks the data ({@link DataCheck}), and fails back when asked. Any failure before
 * the restart leaves Redis running; the result says what was and was not done.
 *
 * <p>Facts: {@code redis.role_before}, {@code redis.role_expected} (what the {@code role_unchanged}
 * gate expects: {@code slave} after a failover without failback), {@code restart.path}, and
 * {@code restart.route} ({@code failover}, {@code sentinel}, {@code cluster} or {@code none}).
 */
public final class SafeRestart {
    private static final Duration CONNECT = Duration.ofSeconds(3);
    /** {@code redis.role_before} of a Redis that was known to be down. */
    public static final String NO_ROLE = "none";

    private final RestartOptions options;
    private final String script;
    private final String what;
    private final String unit;
    private final String state;

    /**
     * @param unit the systemd unit that runs Redis: where its command line is read, and whose state
     *     tells a Redis that is down from one that does not answer
     */
    public SafeRestart(RestartOptions options, String script, String what, String unit) {
        this(options, script, what, unit, ServiceRestart.stateScript(unit));
    }

    /**
     * @param state the script that prints the service's state in systemd's words ({@link
     *     ServiceRestart#stateScript}), for a service that is no systemd unit or init script
     */
    public SafeRestart(RestartOptions options, String script, String what, String unit, String state) {
        this.options = options;
        this.script = script;
        this.what = what;
        this.unit = unit;
        this.state = state;
    }

    public StepResult run(StepContext ctx) throws InterruptedException {
        return run(ctx, new RestartDue(true, false, "always: true"), Optional.empty(), List.of());
    }

    /**
     * @param due whether Redis itself must restart ({@link RestartDue}); when not, only a hand-over journalled by a
     *     run that died is finished
     * @param marker the host's {@link PendingRestart} record
     * @param first notes for the step line before the restart's own (a canary removed)
     */
    public StepResult run(StepContext ctx, RestartDue due, Optional<PendingRestart.Marker> marker, List<String> first)
            throws InterruptedException {
        RedisSnapshot snapshot = withInventoryHosts(ctx, snapshot(ctx));
        List<String> notes = new ArrayList<>(first);
        if (due.fromHost()) {
            notes.add(due.reason());
        }
        // another Redis of this machine's hand-over is its own run's to finish or drop
        Optional<PendingRestart.Handover> journalled = marker.flatMap(PendingRestart.Marker::handover)
                .filter(h -> h.of(ctx.host().name()));
        if (journalled.isPresent()) {
            HandoverResume verdict = handoverVerdict(ctx, snapshot, marker.get(), journalled.get());
            switch (verdict.kind()) {
                case RESUME -> {
                    return resume(ctx, snapshot, due, journalled.get(), verdict.reason(), notes);
                }
                case CANNOT_TELL -> {
                    notes.add(verdict.reason() + "; Redis left running");
                    return StepResult.failed(String.join("; ", notes)).withFacts(roleFacts(snapshot));
                }
                case DROP -> {
                    if (ctx.check()) {
                        notes.add(verdict.reason().replaceFirst("^dropped ", "apply would drop "));
                    } else {
                        PendingRestart.dropHandover(ctx);
                        notes.add(verdict.reason());
                    }
                }
            }
        }
        if (!due.due()) {
            if (journalled.isPresent() && due.fromHost() && !ctx.check()) {
                // the hand-over is dropped and this Redis already runs under the change: nothing is left to do
                PendingRestart.clear(ctx).ifPresent(kept -> notes.add(PendingRestart.PATH + " kept: " + kept));
            }
            return StepResult.skipped(String.join("; ", notes)).withFacts(roleFacts(snapshot));
        }
        RestartDecision decision = RestartDecision.decide(snapshot, options, sentinelStatus(ctx, snapshot));
        boolean failover = decision.kind() == Kind.FAILOVER_THEN_RESTART;
        Map<String, String> facts = facts(snapshot, decision);
        if (decision.kind() == Kind.REFUSE) {
            notes.add(decision.reason() + "; Redis left running");
            return StepResult.failed(String.join("; ", notes)).withFacts(facts);
        }
        Optional<String> forbidden = routeRefused(ctx, snapshot, decision);
        if (forbidden.isPresent()) {
            notes.add("refused: " + forbidden.get() + "; Redis left running");
            return StepResult.failed(String.join("; ", notes)).withFacts(facts);
        }
        notes.add(decision.reason());
        StepResult.Builder result = new StepResult.Builder();
        facts.forEach(result::fact);
        if (ctx.check()) {
            // Later steps (gates) judge the host as the run would leave it: Redis restarted.
            result.change(what, snapshot.answered() ? "running" : "not answering", "restarted");
            notes.add(StepResult.CHECK_NOTE);
            notes.forEach(result::note);
            return result.build().withPredicted(RestartForecast.predicted(snapshot, decision, options));
        }
        // before the canary and the hand-over: a run that dies from here on leaves the restart to do on the host
        PendingRestart.markUnlessPending(ctx, "restart_redis began");
        Poll poll = new Poll(ctx.clock(), ctx.sleeper(), ctx.pollInterval(), ctx.waits());
        Optional<DataCheck> check = options.dataCheck() && snapshot.answered()
                ? Optional.of(prepareCheck(ctx, snapshot, poll, notes))
                : Optional.empty();
        Failover moves = new Failover(ctx, poll, options.timeout());
        Failover.Outcome before = handOverOrSave(ctx, snapshot, decision, poll, moves);
        if (before.error().isPresent()) {
            // nothing was restarted: the canary would only linger, under fleetfix:, for its hour
            check.ifPresent(c -> removeCanary(ctx, c));
            return failed(before.error().get() + "; not restarted, Redis left running", notes, facts);
        }
        Optional<Failover.Moved> moved = before.moved();
        if (moved.isPresent()) {
            notes.add(decision.handover().get().describe() + ": " + moved.get().newPrimary() + " is primary");
            result.change("role", "master", "slave (" + moved.get().newPrimary() + " is primary)");
        }
        Optional<StepResult> restartFailed = restart(ctx, poll, failover, check, notes, facts, result);
        if (restartFailed.isPresent()) {
            return restartFailed.get();
        }
        if (moved.isPresent() && options.failback()) {
            Optional<String> back = moved.get().connect().isEmpty()
                    ? Optional.of(moved.get().newPrimary() + " is not in the inventory")
                    : moves.back(decision.handover().get(), moved.get());
            if (back.isPresent()) {
                return failed("failback failed: " + back.get() + " (Redis runs, as a replica)", notes, facts);
            }
            notes.add("failed back: " + ctx.host().name() + " is primary again");
            result.change("role", "slave", "master (failed back)");
        }
        PendingRestart.clear(ctx).ifPresent(kept -> notes.add(PendingRestart.PATH + " kept: " + kept));
        notes.forEach(result::note);
        return result.build();
    }

    /** Whether Redis would refuse a command the decided route sends it ({@link RouteRights}); read only. */
    private Optional<String> routeRefused(StepContext ctx, RedisSnapshot snapshot, RestartDecision decision) {
        List<String> labels = RouteRights.needed(snapshot, decision, options);
        if (labels.isEmpty() || !snapshot.answered()) {
            return Optional.empty();
        }
        try (RedisNode node = ctx.redis().open(CONNECT)) {
            return RouteRights.refused(node, ctx.host().redis().auth().userName(), snapshot.version(), labels);
        } catch (RedisException e) {
            // the route's own commands will say what is wrong
            return Optional.empty();
        }
    }

    /** Restarts, waits until Redis is back (a synced replica after a failover) and checks the data; empty when ok. */
    private Optional<StepResult> restart(
            StepContext ctx,
            Poll poll,
            boolean asReplica,
            Optional<DataCheck> check,
            List<String> notes,
            Map<String, String> facts,
            StepResult.Builder result)
            throws InterruptedException {
        // Redis saves its data set on shutdown: a large one makes the restart command itself slow.
        // a service restart is a script for every init system: it is named by what it restarts
        String shown = script.contains("\n") ? "the restart of " + what : "'" + script + "'";
        // the restart is verified from Redis itself: an init script's restart (or status) may say it worked when the
        // old process still runs (install_server.sh's status always exits 0), and PING alone cannot tell
        Optional<String> runIdBefore = runId(ctx);
        ctx.waits().waiting(Wait.upFront(shown + " to return", options.timeout()));
        ExecResult r = ctx.shell().exec(Command.of(script).asRoot().withTimeout(options.timeout()));
        if (!r.ok()) {
            // Redis was not restarted: the canary would only linger in the user's keyspace
            check.ifPresent(c -> removeCanary(ctx, c));
            return Optional.of(failed(shown + " exited " + r.exitCode() + ": " + r.errorText(), notes, facts));
        }
        result.change(what, "running", "restarted");
        Optional<String> notUp = poll.until(
                asReplica ? "Redis back as a synced replica" : "Redis back after the restart",
                options.timeout(),
                () -> up(ctx, asReplica, runIdBefore));
        if (notUp.isPresent()) {
            // Redis may answer by now, or later with the canary loaded: the next run removes it first
            check.ifPresent(c -> removeCanary(ctx, c));
            return Optional.of(failed("Redis not back after the restart: " + notUp.get(), notes, facts));
        }
        if (check.isPresent()) {
            Optional<String> lost = poll.until("the keys counted before the restart", options.timeout(), () -> {
                try (RedisNode node = ctx.redis().open(CONNECT)) {
                    return check.get().mismatch(node);
                }
            });
            if (lost.isPresent()) {
                removeCanary(ctx, check.get());
                if (!asReplica) {
                    // Redis did restart under the change: the record has nothing left to ask (after a hand-over
                    // it keeps the failback a resumed run must finish)
                    PendingRestart.clear(ctx).ifPresent(kept -> notes.add(PendingRestart.PATH + " kept: " + kept));
                }
                return Optional.of(failed("data check failed: " + lost.get(), notes, facts));
            }
            notes.add("data check: " + check.get().describe());
            removeCanary(ctx, check.get());
        }
        return Optional.empty();
    }

    /**
     * A run died after handing this host's primary role over ({@code resumed}, from the host's record): the host is
     * a replica of the journalled new primary. Restarts it as a replica when it has not run under the new setting,
     * then fails back when that run meant to and this one does too; a route fleetfix cannot fail back on after a
     * crash fails the host, saying what to do.
     */
    private StepResult resume(
            StepContext ctx,
            RedisSnapshot snapshot,
            RestartDue due,
            PendingRestart.Handover journalled,
            String why,
            List<String> notes)
            throws InterruptedException {
        String self = ctx.host().name();
        boolean failback = journalled.failback() && options.failback();
        notes.add(why);
        Map<String, String> facts = Map.of(
                "redis.role_before",
                "master",
                "redis.role_expected",
                failback ? "master" : "slave",
                "restart.path",
                "resume_handover",
                "restart.route",
                journalled.route());
        boolean backable =
                journalled.route().equals("failover") || journalled.route().equals("manual");
        if (failback && !backable) {
            return StepResult.failed(String.join("; ", notes) + "; fleetfix fails back after a crash only on the"
                            + " FAILOVER and manual routes: make " + self + " primary again by hand ("
                            + journalled.route()
                            + "), then run again; Redis left running")
                    .withFacts(facts);
        }
        StepResult.Builder result = new StepResult.Builder();
        facts.forEach(result::fact);
        if (ctx.check()) {
            if (due.due()) {
                result.change(what, "running", "restarted");
            }
            if (failback) {
                result.change("role", "slave", "master (failed back)");
            }
            notes.add("apply would " + (due.due() ? "restart it as a replica, then " : "")
                    + (failback ? "fail back" : "leave it a replica"));
            notes.add(StepResult.CHECK_NOTE);
            notes.forEach(result::note);
            return result.build();
        }
        Poll poll = new Poll(ctx.clock(), ctx.sleeper(), ctx.pollInterval(), ctx.waits());
        GateTarget.Connect to = t -> ctx.primaries()
                .open(journalled.ip(), journalled.port(), t)
                .orElseThrow(() -> new RedisException(journalled.describe(), "not in the inventory", null));
        // the run may have died before it rewrote the configs: restarted now, this Redis would come back a
        // primary of its own, empty when it has no persistence
        Optional<String> durable = rewriteConfigs(self, ctx.redis(), journalled.host(), to);
        if (durable.isPresent()) {
            return failed(durable.get() + "; not restarted, Redis left running", notes, facts);
        }
        if (due.due()) {
            Optional<DataCheck> check =
                    options.dataCheck() ? Optional.of(prepareCheck(ctx, snapshot, poll, notes)) : Optional.empty();
            Optional<StepResult> restartFailed = restart(ctx, poll, true, check, notes, facts, result);
            if (restartFailed.isPresent()) {
                return restartFailed.get();
            }
        }
        if (failback) {
            // without a restart now, this replica may have been restarted by the run that died a moment before:
            // FAILOVER refuses a replica that is not yet online ("target replica is not online")
            Optional<String> unsynced = poll.until(
                    "Redis a synced replica of " + journalled.host(), options.timeout(), () -> up(ctx, true));
            if (unsynced.isPresent()) {
                return failed(
                        "failback failed: not a synced replica: " + unsynced.get() + " (Redis runs, as a replica)",
                        notes,
                        facts);
            }
            ReplicaLink target = new ReplicaLink(journalled.ip(), journalled.port(), "online", 0, 0, Optional.empty());
            Handover handover =
                    journalled.route().equals("manual") ? Handover.manual(target) : Handover.failover(target);
            Optional<String> back = new Failover(ctx, poll, options.timeout())
                    .back(handover, new Failover.Moved(journalled.host(), Optional.of(to)));
            if (back.isPresent()) {
                return failed("failback failed: " + back.get() + " (Redis runs, as a replica)", notes, facts);
            }
            notes.add("failed back: " + self + " is primary again");
            result.change("role", "slave", "master (failed back)");
        }
        PendingRestart.clear(ctx).ifPresent(kept -> notes.add(PendingRestart.PATH + " kept: " + kept));
        notes.forEach(result::note);
        return result.build();
    }

    /**
     * Whether the host's journalled hand-over is still its state ({@link HandoverResume}), from this host's role now,
     * the journalled new primary's (asked only when this host is its replica) and whether this Redis has yet to
     * restart under the record.
     */
    private static HandoverResume handoverVerdict(
            StepContext ctx, RedisSnapshot snapshot, PendingRestart.Marker marker, PendingRestart.Handover journalled) {
        boolean replicaOfTarget = snapshot.role() == NodeRole.REPLICA
                && snapshot.masterHost().equals(Optional.of(journalled.ip()))
                && snapshot.masterPort() == journalled.port();
        HandoverResume.Target target =
                replicaOfTarget ? target(ctx, journalled) : HandoverResume.Target.unreadable("not asked");
        boolean pending = replicaOfTarget
                && RestartDue.decide(false, false, Optional.of(marker), PendingRestart.redisStarted(ctx))
                        .due();
        return HandoverResume.decide(
                ctx.host().name(),
                journalled,
                marker.run().isEmpty() ? "unknown" : marker.run(),
                snapshot.role(),
                snapshot.masterHost(),
                snapshot.masterPort(),
                target,
                pending);
    }

    /** The journalled new primary's role and {@code master_replid2}, as it says them now. */
    private static HandoverResume.Target target(StepContext ctx, PendingRestart.Handover journalled) {
        try {
            Optional<RedisNode> opened = ctx.primaries().open(journalled.ip(), journalled.port(), CONNECT);
            if (opened.isEmpty()) {
                return HandoverResume.Target.unreadable("not in the inventory");
            }
            try (RedisNode node = opened.get()) {
                Map<String, String> repl = node.info("replication");
                return HandoverResume.Target.answered(
                        NodeRole.of(repl.get("role")),
                        Optional.ofNullable(repl.get("master_replid2")).map(String::strip));
            }
        } catch (RedisException e) {
            return HandoverResume.Target.unreadable(e.getMessage());
        }
    }

    /** This host's {@code master_replid} now: the lineage its new primary keeps after a hand-over. */
    private static Optional<String> lineage(StepContext ctx) {
        try (RedisNode node = ctx.redis().open(CONNECT)) {
            return Optional.ofNullable(node.info("replication").get("master_replid"))
                    .map(String::strip);
        } catch (RedisException e) {
            return Optional.empty();
        }
    }

    /** Before the restart: the primary role moved to a replica, or the data saved, or nothing. */
    private Failover.Outcome handOverOrSave(
            StepContext ctx, RedisSnapshot snapshot, RestartDecision decision, Poll poll, Failover moves)
            throws InterruptedException {
        if (decision.kind() == Kind.FAILOVER_THEN_RESTART) {
            Handover handover = decision.handover().orElseThrow();
            PendingRestart.journal(ctx, journalled(ctx, handover));
            Failover.Outcome outcome = moves.away(handover);
            return outcome.error()
                    .map(e -> Failover.Outcome.failed(handover.describe() + " failed: " + e))
                    .orElse(outcome);
        }
        if (decision.kind() == Kind.SAVE_THEN_RESTART) {
            return new Saver(poll, options.timeout())
                    .save(ctx.redis(), snapshot.aof())
                    .map(e -> Failover.Outcome.failed((snapshot.aof() ? "BGREWRITEAOF" : "BGSAVE") + " failed: " + e))
                    .orElse(Failover.Outcome.stayed());
        }
        return Failover.Outcome.stayed();
    }

    /** CONFIG REWRITE on this host and on its primary, so that the roles they have now survive a restart. */
    private static Optional<String> rewriteConfigs(
            String self, GateTarget.Connect host, String primaryName, GateTarget.Connect primary) {
        Map<String, GateTarget.Connect> nodes = new java.util.LinkedHashMap<>();
        nodes.put(self, host);
        nodes.put(primaryName, primary);
        for (var node : nodes.entrySet()) {
            try (RedisNode n = node.getValue().open(CONNECT)) {
                n.command("CONFIG", "REWRITE");
            } catch (RedisException e) {
                return Optional.of("CONFIG REWRITE on " + node.getKey() + ": " + e.getMessage()
                        + " (the roles are swapped at runtime only; a restart would bring back the old ones)");
            }
        }
        return Optional.empty();
    }

    /** The hand-over as the host's record keeps it. */
    private PendingRestart.Handover journalled(StepContext ctx, Handover handover) {
        String route = handover.route().name().toLowerCase(Locale.ROOT);
        if (handover.target().isEmpty()) {
            String name = handover.sentinel().map(m -> m.name()).orElse("?");
            return new PendingRestart.Handover(
                    route,
                    "",
                    0,
                    name.replaceAll("\\s+", "_"),
                    options.failback(),
                    Optional.empty(),
                    Optional.of(ctx.host().name()));
        }
        ReplicaLink t = handover.target().get();
        return new PendingRestart.Handover(
                route,
                t.ip(),
                t.port(),
                t.host().orElse(t.ip()).replaceAll("\\s+", "_"),
                options.failback(),
                lineage(ctx),
                Optional.of(ctx.host().name()));
    }

    /**
     * Removes {@code fleetfix:canary:HOST} left on the data's primary by a run that died during this host's restart
     * (in check mode only says it would); empty when there was none. A canary of a live run cannot be there: the
     * host lock lets one run at a time work on this host, the only one that writes its canary.
     */
    public static Optional<String> removeLeftCanary(StepContext ctx) {
        String key = DataCheck.canaryKey(ctx.host().name());
        try (RedisNode node = ctx.redis().open(CONNECT)) {
            RedisSnapshot now = RedisSnapshot.roles(ctx.host().name(), node);
            try (RedisNode writer = writer(ctx, now).orElse(null)) {
                if (writer == null) {
                    return Optional.empty();
                }
                if (ctx.check()) {
                    // GET, not EXISTS: the documented ACL grants the restart +get
                    return writer.command("GET", key) != null
                            ? Optional.of("would remove " + key + ", left on " + writer.hostName()
                                    + " by a run that did not end")
                            : Optional.empty();
                }
                return isOne(writer.command("DEL", key))
                        ? Optional.of(
                                "removed " + key + ", left on " + writer.hostName() + " by a run that did not end")
                        : Optional.empty();
            }
        } catch (RedisException e) {
            // Redis does not answer: the restart's own checks say so; a canary expires within its hour
            return Optional.empty();
        }
    }

    private static boolean isOne(Object reply) {
        return reply != null && String.valueOf(reply).equals("1");
    }

    /** The host's role now, as {@code role_unchanged} must see it after a step that did not restart Redis. */
    public static Map<String, String> roleFacts(StepContext ctx) {
        try (RedisNode node = ctx.redis().open(CONNECT)) {
            return roleFacts(RedisSnapshot.roles(ctx.host().name(), node));
        } catch (RedisException e) {
            return Map.of();
        }
    }

    private static Map<String, String> roleFacts(RedisSnapshot snapshot) {
        String role = roleWord(snapshot.role());
        return role.equals("unknown") ? Map.of() : Map.of("redis.role_before", role, "redis.role_expected", role);
    }

    /** What later steps and the report learn: roles before and expected after, path and route. */
    private Map<String, String> facts(RedisSnapshot snapshot, RestartDecision decision) {
        // a Redis known to be down had no role to keep: "none", which role_unchanged tells from not knowing
        String roleBefore = snapshot.down() ? NO_ROLE : roleWord(snapshot.role());
        boolean failover = decision.kind() == Kind.FAILOVER_THEN_RESTART;
        return Map.of(
                "redis.role_before",
                roleBefore,
                "redis.role_expected",
                failover && !options.failback() ? "slave" : roleBefore,
                "restart.path",
                decision.kind().name().toLowerCase(Locale.ROOT),
                "restart.route",
                decision.handover()
                        .map(h -> h.route().name().toLowerCase(Locale.ROOT))
                        .orElse("none"));
    }

    private static StepResult failed(String message, List<String> notes, Map<String, String> facts) {
        return StepResult.failed(String.join("; ", notes) + "; " + message).withFacts(facts);
    }

    static String roleWord(NodeRole role) {
        return switch (role) {
            case PRIMARY -> "master";
            case REPLICA -> "slave";
            case UNKNOWN -> "unknown";
        };
    }

    /** What the inventory's Sentinels say about this host, when it is a primary outside a cluster. */
    private static SentinelStatus sentinelStatus(StepContext ctx, RedisSnapshot s) {
        if (!ctx.sentinels().named() || s.role() != NodeRole.PRIMARY || s.cluster()) {
            return SentinelStatus.NONE;
        }
        Host h = ctx.host();
        try {
            return ctx.sentinels().masters(CONNECT).value().stream()
                    .filter(m -> m.at(h.redis().address(), h.redis().port())
                            || m.at(h.address(), h.redis().port()))
                    .findFirst()
                    .map(SentinelStatus::managedAs)
                    .orElse(SentinelStatus.unmanaged());
        } catch (RedisException e) {
            return SentinelStatus.unknown(e.detail());
        }
    }

    private RedisSnapshot snapshot(StepContext ctx) {
        try (RedisNode node = ctx.redis().open(CONNECT)) {
            return RedisSnapshot.observe(ctx.host().name(), node, new PersistenceReader(ctx.shell(), unit));
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
            return whyNotRunning(ctx, e.detail());
        }
    }

    /**
     * A refused connection proves only that nothing listens at that address. Redis is down when its
     * unit is inactive and nothing listens on its port at any address; else it may run elsewhere,
     * with data.
     */
    private RedisSnapshot whyNotRunning(StepContext ctx, String refused) {
        int port = ctx.host().redis().port();
        String address = ctx.host().redis().address();
        ExecResult r =
                ctx.shell().exec(Command.of(processScript(state, address, port)).withTimeout(Duration.ofSeconds(20)));
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
     * {@code unit=active} (the service's state on systemd or SysV init, see {@link ServiceRestart#stateScript})
     * and {@code listening=N}: sockets listening on the port at Redis's address
     * or a wildcard one. Sockets of other addresses are other instances (several per host, or
     * containers sharing the network); when the address is a name rather than an IP, every
     * listener on the port counts, since which IP it is cannot be told here.
     */
    static String processScript(String state, String address, int port) {
        String ip = address.matches("[0-9.]+|[0-9a-fA-F:]+") ? address : "";
        return "echo unit=$(" + state + ");"
                + " echo listening=$(ss -ltnH 2>/dev/null | awk -v a=" + ShellQuote.quote(ip) + " -v p=" + port
                + " '{ l = $4; sub(/%[^:]*/, \"\", l); n = split(l, x, \":\"); if (x[n] != p) next;"
                + " h = substr(l, 1, length(l) - length(p) - 1); gsub(/^\\[|\\]$/, \"\", h);"
                + " if (a == \"\" || h == a || h == \"0.0.0.0\" || h == \"*\" || h == \"::\" || h == \"::ffff:\" a) c++ }"
                + " END { print c + 0 }')";
    }

    /** Names the inventory host of each replica fleetfix can open (only those are failover targets). */
    private static RedisSnapshot withInventoryHosts(StepContext ctx, RedisSnapshot s) {
        if (s.replicas().isEmpty()) {
            return s;
        }
        List<ReplicaLink> named = new ArrayList<>();
        for (ReplicaLink r : s.replicas()) {
            Optional<String> host = Optional.empty();
            try {
                Optional<RedisNode> node = ctx.primaries().open(r.ip(), r.port(), CONNECT);
                if (node.isPresent()) {
                    try (RedisNode n = node.get()) {
                        host = Optional.of(n.hostName());
                    }
                }
            } catch (RedisException e) {
                host = Optional.empty();
            }
            named.add(r.withHost(host));
        }
        var repl = s.replication();
        return new RedisSnapshot(
                s.answered(),
                s.down(),
                new dev.fleetfix.redis.topology.NodeState(
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

    /** Writes the canary on the data's primary and waits until the host holds it, then counts keys. */
    private DataCheck prepareCheck(StepContext ctx, RedisSnapshot s, Poll poll, List<String> notes)
            throws InterruptedException {
        String key = DataCheck.canaryKey(ctx.host().name());
        String value = ctx.runStamp() + ":" + Long.toHexString(Double.doubleToLongBits(Math.random()));
        boolean written = false;
        try (RedisNode writer = writer(ctx, s).orElse(null)) {
            if (writer != null) {
                Optional<String> served = ClusterKeys.servedBy(writer, key);
                if (served.isPresent()) {
                    key = served.get();
                    DataCheck.writeCanary(writer, key, value);
                    written = true;
                } else {
                    notes.add("canary not written (" + writer.hostName() + " serves no cluster slot)");
                }
            }
        } catch (RedisException e) {
            notes.add("canary not written (" + e.getMessage() + ")");
        }
        String canary = key;
        if (written) {
            Optional<String> seen = poll.until("the canary key to replicate", DataCheck.settle(), () -> {
                try (RedisNode node = ctx.redis().open(CONNECT)) {
                    return value.equals(DataCheck.read(node, canary, s.cluster()))
                            ? Optional.empty()
                            : Optional.of("canary not replicated yet");
                }
            });
            if (seen.isPresent()) {
                notes.add("canary not seen on the host before the restart: " + seen.get());
                written = false;
            }
        }
        try (RedisNode node = ctx.redis().open(CONNECT)) {
            return new DataCheck(canary, value, RedisSnapshot.keyspace(node.info("keyspace")), written, s.cluster());
        }
    }

    /** The primary whose data the host holds: itself, or its primary when in the inventory. */
    private static Optional<RedisNode> writer(StepContext ctx, RedisSnapshot s) {
        if (s.role() == NodeRole.PRIMARY) {
            return Optional.of(ctx.redis().open(CONNECT));
        }
        if (s.masterHost().isPresent()) {
            return ctx.primaries().open(s.masterHost().get(), s.masterPort(), CONNECT);
        }
        return Optional.empty();
    }

    private static void removeCanary(StepContext ctx, DataCheck check) {
        try (RedisNode node = ctx.redis().open(CONNECT)) {
            RedisSnapshot now = RedisSnapshot.roles(ctx.host().name(), node);
            try (RedisNode writer = writer(ctx, now).orElse(null)) {
                if (writer != null) {
                    writer.command("DEL", check.key());
                }
            }
        } catch (RedisException e) {
            // The canary expires by itself within the hour.
        }
    }

    /** INFO server's {@code run_id} now, empty when Redis does not answer or does not say. */
    private static Optional<String> runId(StepContext ctx) {
        try (RedisNode node = ctx.redis().open(CONNECT)) {
            return Optional.ofNullable(node.info("server").get("run_id"))
                    .map(String::strip)
                    .filter(id -> !id.isEmpty());
        } catch (RedisException e) {
            return Optional.empty();
        }
    }

    /** Empty once Redis answers, has loaded its data, and (after a failover) is a synced replica. */
    private static Optional<String> up(StepContext ctx, boolean asReplica) {
        return up(ctx, asReplica, Optional.empty());
    }

    /**
     * As {@link #up(StepContext, boolean)}, and the Redis that answers is a new process: its {@code run_id} is not
     * {@code runIdBefore}'s.
     */
    private static Optional<String> up(StepContext ctx, boolean asReplica, Optional<String> runIdBefore) {
        try (RedisNode node = ctx.redis().open(CONNECT)) {
            node.ping();
            if (runIdBefore.isPresent()) {
                String now = node.info("server").getOrDefault("run_id", "").strip();
                if (now.equals(runIdBefore.get())) {
                    return Optional.of("Redis answers with the run_id it had before the restart (" + now
                            + "): it was not restarted; the service's restart returned without stopping it");
                }
            }
            String loading = node.info("persistence").getOrDefault("loading", "?");
            if (!loading.equals("0")) {
                return Optional.of("loading:" + loading);
            }
            if (!asReplica) {
                return Optional.empty();
            }
            Map<String, String> repl = node.info("replication");
            String role = repl.getOrDefault("role", "?");
            String link = repl.getOrDefault("master_link_status", "?");
            String sync = repl.getOrDefault("master_sync_in_progress", "?");
            return role.equals("slave") && link.equals("up") && sync.equals("0")
                    ? Optional.empty()
                    : Optional.of("role:" + role + " master_link_status:" + link + " master_sync_in_progress:" + sync);
        }
    }
}
