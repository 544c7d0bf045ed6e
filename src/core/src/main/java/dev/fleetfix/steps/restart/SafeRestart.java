package dev.fleetfix.steps.restart;

import dev.fleetfix.health.Poll;
import dev.fleetfix.redis.RedisException;
import dev.fleetfix.redis.RedisNode;
import dev.fleetfix.steps.model.StepContext;
import dev.fleetfix.steps.model.StepResult;
import dev.fleetfix.steps.restart.RestartDecision.Kind;
import dev.fleetfix.steps.restart.handover.Handover;
import dev.fleetfix.steps.restart.handover.Handover.Moved;
import dev.fleetfix.steps.restart.handover.Handover.Outcome;
import dev.fleetfix.steps.restart.handover.RoleMoves;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Restarts one host's Redis without losing data, in this sequence: decide how ({@link RestartDecision}), save the
 * data set or hand the primary role over ({@link Handover}), restart and verify ({@link VerifiedRestart}: Redis back,
 * as a synced replica after a hand-over, the data checked), and hand the role back when asked. Any failure before the
 * restart leaves Redis running; the result says what was and was not done, and carries {@link RestartFacts}.
 */
public final class SafeRestart {
    private static final Duration CONNECT = Duration.ofSeconds(3);
    /** {@code redis.role_before} of a Redis that was known to be down. */
    public static final String NO_ROLE = "none";

    private final RestartOptions options;
    private final String script;
    private final String what;
    private final ServiceProbe probe;

    /**
     * @param unit the systemd unit that runs Redis: where its command line is read, and whose state
     *     tells a Redis that is down from one that does not answer
     */
    public SafeRestart(RestartOptions options, String script, String what, String unit) {
        this(options, script, what, unit, ServiceRestart.stateScript(unit));
    }

    /**
     * @param state the script that prints the service's state in systemd's words ({@link
     *     ServiceRestart#supervisorStateScript}), for a service that is no systemd unit or init script: read as root,
     *     as its restart is ({@code supervisorctl}'s socket is root's in the shipped configurations)
     */
    public SafeRestart(RestartOptions options, String script, String what, String unit, String state) {
        this(options, script, what, ServiceProbe.asRoot(unit, state));
    }

    /** Restarts a container through its route; its state and files are read as {@link ContainerRoute#probe} says. */
    public SafeRestart(RestartOptions options, ContainerRoute route) {
        this(options, route.script(), route.what(), route.probe());
    }

    private SafeRestart(RestartOptions options, String script, String what, ServiceProbe probe) {
        this.options = options;
        this.script = script;
        this.what = what;
        this.probe = probe;
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
        RedisSnapshot snapshot = SnapshotReader.read(ctx, probe);
        RestartReport report = new RestartReport(first);
        if (due.fromHost()) {
            report.note(due.reason());
        }
        // another Redis of this machine's hand-over is its own run's to finish or drop
        Optional<PendingRestart.Handover> journalled = marker.flatMap(PendingRestart.Marker::handover)
                .filter(h -> h.of(ctx.host().name()));
        if (journalled.isPresent()) {
            HandoverResume verdict = ResumedHandover.verdict(ctx, snapshot, marker.get(), journalled.get());
            switch (verdict.kind()) {
                case RESUME -> {
                    return new ResumedHandover(ctx, options, script, what)
                            .resume(snapshot, due, journalled.get(), verdict.reason(), report);
                }
                case CANNOT_TELL -> {
                    report.note(verdict.reason() + "; Redis left running");
                    report.facts(RestartFacts.roles(snapshot));
                    return report.failed();
                }
                case DROP -> drop(ctx, verdict, report);
            }
        }
        if (!due.due()) {
            if (journalled.isPresent() && due.fromHost() && !ctx.check()) {
                // the hand-over is dropped and this Redis already runs under the change: nothing is left to do
                report.kept(PendingRestart.clear(ctx));
            }
            report.facts(RestartFacts.roles(snapshot));
            return report.skipped();
        }
        return restart(ctx, snapshot, report);
    }

    /** A journalled hand-over whose purpose is gone leaves the record (check mode says it would). */
    private static void drop(StepContext ctx, HandoverResume verdict, RestartReport report) {
        if (ctx.check()) {
            report.note(verdict.reason().replaceFirst("^dropped ", "apply would drop "));
        } else {
            PendingRestart.dropHandover(ctx);
            report.note(verdict.reason());
        }
    }

    /** Decides how, refuses what is not safe, and (check mode) forecasts; else {@link #apply}. */
    private StepResult restart(StepContext ctx, RedisSnapshot snapshot, RestartReport report)
            throws InterruptedException {
        RestartDecision decision =
                RestartDecision.decide(snapshot, options, SnapshotReader.sentinelStatus(ctx, snapshot));
        report.facts(RestartFacts.of(snapshot, decision, options.failback()));
        if (decision.kind() == Kind.REFUSE) {
            report.note(decision.reason() + "; Redis left running");
            return report.failed();
        }
        Optional<String> forbidden = routeRefused(ctx, snapshot, decision);
        if (forbidden.isPresent()) {
            report.note("refused: " + forbidden.get() + "; Redis left running");
            return report.failed();
        }
        report.note(decision.reason());
        if (ctx.check()) {
            // Later steps (gates) judge the host as the run would leave it: Redis restarted.
            report.change(what, snapshot.answered() ? "running" : "not answering", "restarted");
            report.note(StepResult.CHECK_NOTE);
            return report.done().withPredicted(RestartForecast.predicted(snapshot, decision, options));
        }
        return apply(ctx, snapshot, decision, report);
    }

    /** Save or hand over, restart and verify, hand back. */
    private StepResult apply(StepContext ctx, RedisSnapshot snapshot, RestartDecision decision, RestartReport report)
            throws InterruptedException {
        // before the canary and the hand-over: a run that dies from here on leaves the restart to do on the host
        PendingRestart.markUnlessPending(ctx, "restart_redis began");
        Poll poll = ctx.poll();
        Optional<DataCheck> check = options.dataCheck() && snapshot.answered()
                ? Optional.of(Canary.prepare(ctx, snapshot, poll, report))
                : Optional.empty();
        RoleMoves moves = new RoleMoves(ctx, poll, options.timeout());
        Outcome before = handOverOrSave(ctx, snapshot, decision, poll, moves);
        if (before.error().isPresent()) {
            // nothing was restarted: the canary would only linger, under fleetfix:, for its hour
            check.ifPresent(c -> Canary.remove(ctx, c));
            return report.failed(before.error().get() + "; not restarted, Redis left running");
        }
        Optional<Moved> moved = before.moved();
        moved.ifPresent(m -> {
            report.note(decision.handover().orElseThrow().describe() + ": " + m.newPrimary() + " is primary");
            report.change("role", "master", "slave (" + m.newPrimary() + " is primary)");
        });
        boolean asReplica = decision.kind() == Kind.FAILOVER_THEN_RESTART;
        Optional<StepResult> restartFailed =
                new VerifiedRestart(ctx, poll, options.timeout(), script, what).run(asReplica, check, report);
        if (restartFailed.isPresent()) {
            return restartFailed.get();
        }
        if (moved.isPresent() && options.failback()) {
            Optional<String> back = handBack(ctx, decision.handover().orElseThrow(), moved.get(), moves, report);
            if (back.isPresent()) {
                return report.failed("failback failed: " + back.get() + " (Redis runs, as a replica)");
            }
        }
        report.kept(PendingRestart.clear(ctx));
        return report.done();
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

    /** Before the restart: the primary role moved to a replica, or the data saved, or nothing. */
    private Outcome handOverOrSave(
            StepContext ctx, RedisSnapshot snapshot, RestartDecision decision, Poll poll, RoleMoves moves)
            throws InterruptedException {
        if (decision.kind() == Kind.FAILOVER_THEN_RESTART) {
            Handover handover = decision.handover().orElseThrow();
            PendingRestart.journal(ctx, HandoverJournal.entry(ctx, handover, options.failback()));
            Outcome outcome = handover.away(moves);
            return outcome.error()
                    .map(e -> Outcome.failed(handover.describe() + " failed: " + e))
                    .orElse(outcome);
        }
        if (decision.kind() == Kind.SAVE_THEN_RESTART) {
            return new Saver(poll, options.timeout())
                    .save(ctx.redis(), snapshot.aof())
                    .map(e -> Outcome.failed((snapshot.aof() ? "BGREWRITEAOF" : "BGSAVE") + " failed: " + e))
                    .orElse(Outcome.stayed());
        }
        return Outcome.stayed();
    }

    /** After the restart: the primary role back to this host; empty when done, else why not. */
    private static Optional<String> handBack(
            StepContext ctx, Handover handover, Moved moved, RoleMoves moves, RestartReport report)
            throws InterruptedException {
        Optional<String> back = moved.connect().isEmpty()
                ? Optional.of(moved.newPrimary() + " is not in the inventory")
                : handover.back(moves, moved);
        if (back.isEmpty()) {
            report.note("failed back: " + ctx.host().name() + " is primary again");
            report.change("role", "slave", "master (failed back)");
        }
        return back;
    }

    /**
     * Removes {@code fleetfix:canary:HOST} left on the data's primary by a run that died during this host's restart
     * (in check mode only says it would); empty when there was none. A canary of a live run cannot be there: the
     * host lock lets one run at a time work on this host, the only one that writes its canary.
     */
    public static Optional<String> removeLeftCanary(StepContext ctx) {
        return Canary.removeLeft(ctx);
    }

    /** The host's role now, as {@code role_unchanged} must see it after a step that did not restart Redis. */
    public static Map<String, String> roleFacts(StepContext ctx) {
        return RestartFacts.roles(ctx);
    }
}
