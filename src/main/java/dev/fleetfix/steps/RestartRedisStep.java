package dev.fleetfix.steps;

import dev.fleetfix.playbook.StepSignature;
import dev.fleetfix.redis.RedisException;
import dev.fleetfix.redis.RedisNode;
import dev.fleetfix.transport.Command;
import dev.fleetfix.transport.ExecResult;
import dev.fleetfix.transport.ShellQuote;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * {@code restart_redis: {unit: redis-server}} or {@code {command: "..."}}: restarts Redis, only
 * when an earlier step of this play changed the host, unless {@code always: true}. Remembers the
 * role before the restart ({@code redis.role_before}) for the {@code role_unchanged} gate.
 */
final class RestartRedisStep implements StepType {
    @Override
    public StepSignature signature() {
        return new StepSignature(
                "restart_redis", Set.of("unit", "command", "always", "timeout"), Set.of("command"), Optional.empty());
    }

    @Override
    public StepHandler prepare(StepArgs args) {
        if (args.has("unit") && args.has("command")) {
            throw args.error("give either unit or command, not both");
        }
        Optional<String> command = args.text("command");
        String unit = args.text("unit", args.host().redis().serviceUnit());
        boolean always = args.bool("always", false);
        Duration timeout = args.duration("timeout", Duration.ofSeconds(90));
        String script = command.orElse("systemctl restart " + ShellQuote.quote(unit));
        String what = command.isPresent() ? "redis (command)" : "service " + unit;
        return ctx -> {
            if (!always && !ctx.state().changedInPlay()) {
                return StepResult.skipped("nothing changed on this host in this play");
            }
            String roleBefore = role(ctx).orElse("unknown");
            StepResult.Builder result = new StepResult.Builder().fact("redis.role_before", roleBefore);
            if (!ctx.check()) {
                ExecResult r = ctx.shell().exec(Command.of(script).asRoot().withTimeout(timeout));
                if (!r.ok()) {
                    return StepResult.failed("'" + script + "' exited " + r.exitCode() + ": " + r.errorText())
                            .withFacts(Map.of("redis.role_before", roleBefore));
                }
            }
            result.change(what, "running", "restarted");
            return result.build();
        };
    }

    private static Optional<String> role(StepContext ctx) {
        try (RedisNode node = ctx.redis().open(Duration.ofSeconds(5))) {
            return Optional.ofNullable(node.info("replication").get("role"));
        } catch (RedisException e) {
            return Optional.empty();
        }
    }
}
