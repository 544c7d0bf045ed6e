package dev.fleetfix.steps.restart;

import dev.fleetfix.health.Poll;
import dev.fleetfix.health.Wait;
import dev.fleetfix.redis.RedisException;
import dev.fleetfix.redis.RedisNode;
import dev.fleetfix.steps.model.StepContext;
import dev.fleetfix.steps.model.StepResult;
import dev.fleetfix.transport.Command;
import dev.fleetfix.transport.ExecResult;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;

/**
 * The restart itself, verified from Redis: the service's restart script, then Redis back as a new process with its
 * data loaded (a synced replica after a hand-over), then the data check. An init script's restart (or status) may say
 * it worked when the old process still runs (install_server.sh's status always exits 0), and PING alone cannot tell.
 */
final class VerifiedRestart {
    private static final Duration CONNECT = Duration.ofSeconds(3);

    private final StepContext ctx;
    private final Poll poll;
    private final Duration timeout;
    private final String script;
    private final String what;

    /**
     * @param script the service's restart script
     * @param what what it restarts, for the result ("service redis-server")
     */
    VerifiedRestart(StepContext ctx, Poll poll, Duration timeout, String script, String what) {
        this.ctx = ctx;
        this.poll = poll;
        this.timeout = timeout;
        this.script = script;
        this.what = what;
    }

    /** Restarts, waits until Redis is back (a synced replica after a failover) and checks the data; empty when ok. */
    Optional<StepResult> run(boolean asReplica, Optional<DataCheck> check, RestartReport report)
            throws InterruptedException {
        // Redis saves its data set on shutdown: a large one makes the restart command itself slow.
        // a service restart is a script for every init system: it is named by what it restarts
        String shown = script.contains("\n") ? "the restart of " + what : "'" + script + "'";
        Optional<String> runIdBefore = runId();
        ctx.listeners().waits().waiting(Wait.upFront(shown + " to return", timeout));
        ExecResult r = ctx.shell().exec(Command.of(script).asRoot().withTimeout(timeout));
        if (!r.ok()) {
            // Redis was not restarted: the canary would only linger in the user's keyspace
            check.ifPresent(c -> Canary.remove(ctx, c));
            return Optional.of(report.failed(shown + " exited " + r.exitCode() + ": " + r.errorText()));
        }
        report.change(what, "running", "restarted");
        Optional<String> notUp = poll.until(
                asReplica ? "Redis back as a synced replica" : "Redis back after the restart",
                timeout,
                () -> up(ctx, asReplica, runIdBefore));
        if (notUp.isPresent()) {
            // Redis may answer by now, or later with the canary loaded: the next run removes it first
            check.ifPresent(c -> Canary.remove(ctx, c));
            return Optional.of(report.failed("Redis not back after the restart: " + notUp.get()));
        }
        return check.isPresent() ? dataCheck(check.get(), asReplica, report) : Optional.empty();
    }

    private Optional<StepResult> dataCheck(DataCheck check, boolean asReplica, RestartReport report)
            throws InterruptedException {
        Optional<String> lost = poll.until("the keys counted before the restart", timeout, () -> {
            try (RedisNode node = ctx.redis().open(CONNECT)) {
                return check.mismatch(node);
            }
        });
        if (lost.isPresent()) {
            Canary.remove(ctx, check);
            if (!asReplica) {
                // Redis did restart under the change: the record has nothing left to ask (after a hand-over
                // it keeps the failback a resumed run must finish)
                report.kept(PendingRestart.clear(ctx));
            }
            return Optional.of(report.failed("data check failed: " + lost.get()));
        }
        report.note("data check: " + check.describe());
        Canary.remove(ctx, check);
        return Optional.empty();
    }

    /** INFO server's {@code run_id} now, empty when Redis does not answer or does not say. */
    private Optional<String> runId() {
        try (RedisNode node = ctx.redis().open(CONNECT)) {
            return Optional.ofNullable(node.info("server").get("run_id"))
                    .map(String::strip)
                    .filter(id -> !id.isEmpty());
        } catch (RedisException e) {
            return Optional.empty();
        }
    }

    /**
     * Empty once Redis answers, has loaded its data, and (after a failover) is a synced replica; when {@code
     * runIdBefore} is there, the Redis that answers must be a new process: its {@code run_id} is not that one.
     */
    static Optional<String> up(StepContext ctx, boolean asReplica, Optional<String> runIdBefore) {
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
