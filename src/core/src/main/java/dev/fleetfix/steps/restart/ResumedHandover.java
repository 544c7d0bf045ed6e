package dev.fleetfix.steps.restart;

import dev.fleetfix.health.GateTarget;
import dev.fleetfix.health.Poll;
import dev.fleetfix.redis.RedisException;
import dev.fleetfix.redis.RedisNode;
import dev.fleetfix.redis.topology.NodeRole;
import dev.fleetfix.redis.topology.ReplicaLink;
import dev.fleetfix.steps.model.StepContext;
import dev.fleetfix.steps.model.StepResult;
import dev.fleetfix.steps.restart.handover.Handover;
import dev.fleetfix.steps.restart.handover.RoleMoves;
import dev.fleetfix.steps.restart.handover.RouteChoice;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * A run died after handing this host's primary role over, as the host's record says ({@link PendingRestart}):
 * whether that hand-over is still the host's state ({@link HandoverResume}), and finishing it when it is. The host
 * is a replica of the journalled new primary: it restarts as a replica when it has not run under the new setting,
 * then fails back when that run meant to and this one does too; a route fleetfix cannot fail back on after a crash
 * fails the host, saying what to do.
 */
final class ResumedHandover {
    private static final Duration CONNECT = Duration.ofSeconds(3);

    private final StepContext ctx;
    private final RestartOptions options;
    private final String script;
    private final String what;

    ResumedHandover(StepContext ctx, RestartOptions options, String script, String what) {
        this.ctx = ctx;
        this.options = options;
        this.script = script;
        this.what = what;
    }

    /**
     * Whether the host's journalled hand-over is still its state, from this host's role now, the journalled new
     * primary's (asked only when this host is its replica) and whether this Redis has yet to restart under the record.
     */
    static HandoverResume verdict(
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
            Optional<RedisNode> opened = ctx.peers().primaries().open(journalled.ip(), journalled.port(), CONNECT);
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

    /** Finishes the journalled hand-over, {@code why} saying it may ({@link HandoverResume.Kind#RESUME}). */
    StepResult resume(
            RedisSnapshot snapshot,
            RestartDue due,
            PendingRestart.Handover journalled,
            String why,
            RestartReport report)
            throws InterruptedException {
        String self = ctx.host().name();
        boolean failback = journalled.failback() && options.failback();
        report.note(why);
        report.facts(RestartFacts.resumed(journalled, failback));
        ReplicaLink target = new ReplicaLink(journalled.ip(), journalled.port(), "online", 0, 0, Optional.empty());
        Optional<Handover> back = RouteChoice.resumed(journalled.route(), target);
        if (failback && back.isEmpty()) {
            return report.failed("fleetfix fails back after a crash only on the FAILOVER and manual routes: make "
                    + self + " primary again by hand (" + journalled.route().word() + "), then run again; Redis left"
                    + " running");
        }
        if (ctx.check()) {
            return forecast(due, failback, report);
        }
        Poll poll = ctx.poll();
        GateTarget.Connect to = t -> ctx.peers()
                .primaries()
                .open(journalled.ip(), journalled.port(), t)
                .orElseThrow(() -> new RedisException(journalled.describe(), "not in the inventory", null));
        // the run may have died before it rewrote the configs: restarted now, this Redis would come back a
        // primary of its own, empty when it has no persistence
        Map<String, GateTarget.Connect> nodes = new LinkedHashMap<>();
        nodes.put(self, ctx.redis());
        nodes.put(journalled.host(), to);
        Optional<String> durable = RoleMoves.rewriteConfigs(
                nodes, "the roles are swapped at runtime only; a restart would bring back the old ones");
        if (durable.isPresent()) {
            return report.failed(durable.get() + "; not restarted, Redis left running");
        }
        Optional<StepResult> failed = due.due() ? restartAsReplica(snapshot, poll, report) : Optional.empty();
        if (failed.isEmpty() && failback) {
            failed = failBack(poll, journalled, back.orElseThrow(), to, report);
        }
        if (failed.isPresent()) {
            return failed.get();
        }
        report.kept(PendingRestart.clear(ctx));
        return report.done();
    }

    private Optional<StepResult> restartAsReplica(RedisSnapshot snapshot, Poll poll, RestartReport report)
            throws InterruptedException {
        Optional<DataCheck> check =
                options.dataCheck() ? Optional.of(Canary.prepare(ctx, snapshot, poll, report)) : Optional.empty();
        return new VerifiedRestart(ctx, poll, options.timeout(), script, what).run(true, check, report);
    }

    /** Check mode: what apply would do. */
    private StepResult forecast(RestartDue due, boolean failback, RestartReport report) {
        if (due.due()) {
            report.change(what, "running", "restarted");
        }
        if (failback) {
            report.change("role", "slave", "master (failed back)");
        }
        report.note("apply would " + (due.due() ? "restart it as a replica, then " : "")
                + (failback ? "fail back" : "leave it a replica"));
        report.note(StepResult.CHECK_NOTE);
        return report.done();
    }

    private Optional<StepResult> failBack(
            Poll poll,
            PendingRestart.Handover journalled,
            Handover handover,
            GateTarget.Connect to,
            RestartReport report)
            throws InterruptedException {
        // without a restart now, this replica may have been restarted by the run that died a moment before:
        // FAILOVER refuses a replica that is not yet online ("target replica is not online")
        Optional<String> unsynced = poll.until(
                "Redis a synced replica of " + journalled.host(),
                options.timeout(),
                () -> VerifiedRestart.up(ctx, true, Optional.empty()));
        if (unsynced.isPresent()) {
            return Optional.of(report.failed(
                    "failback failed: not a synced replica: " + unsynced.get() + " (Redis runs, as a replica)"));
        }
        Optional<String> back = handover.back(
                new RoleMoves(ctx, poll, options.timeout()), new Handover.Moved(journalled.host(), Optional.of(to)));
        if (back.isPresent()) {
            return Optional.of(report.failed("failback failed: " + back.get() + " (Redis runs, as a replica)"));
        }
        report.note("failed back: " + ctx.host().name() + " is primary again");
        report.change("role", "slave", "master (failed back)");
        return Optional.empty();
    }
}
