package dev.fleetfix.steps;

import dev.fleetfix.playbook.StepSignature;
import dev.fleetfix.steps.restart.RestartOptions;
import dev.fleetfix.steps.restart.SafeRestart;
import dev.fleetfix.transport.ShellQuote;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * {@code restart_redis: {unit: redis-server}} or {@code {command: "..."}}: restarts Redis, only
 * when an earlier step of this play changed the host, unless {@code always: true}; without losing
 * data (see {@link SafeRestart}):
 *
 * <ul>
 *   <li>{@code topology: auto|off} (auto): read roles; replicas restart before their primary
 *       (the planner orders batches by the same setting);
 *   <li>{@code failover: auto|never|manual} (auto): fail a primary over to an in-sync replica
 *       first; {@code manual} hands it over by hand even where FAILOVER exists;
 *   <li>{@code failback: false}: make the old primary primary again afterwards;
 *   <li>{@code allow_data_loss: false}: restart even a Redis whose data lives only in memory;
 *   <li>{@code data_check: true}: key counts and a canary key around the restart;
 *   <li>{@code timeout: 90s}: bound on each wait.
 * </ul>
 *
 * Remembers the role before the restart ({@code redis.role_before}) and the role the
 * {@code role_unchanged} gate must see ({@code redis.role_expected}).
 */
final class RestartRedisStep implements StepType {
    static final Set<String> ARGS = Set.of(
            "unit",
            "command",
            "always",
            "timeout",
            "topology",
            "failover",
            "failback",
            "allow_data_loss",
            "data_check");

    @Override
    public StepSignature signature() {
        return new StepSignature("restart_redis", ARGS, Set.of("command"), Optional.empty());
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
        boolean topology =
                args.choice("topology", "auto", List.of("auto", "off")).equals("auto");
        String failoverChoice = args.choice("failover", "auto", List.of("auto", "never", "manual"));
        boolean failover = !failoverChoice.equals("never");
        boolean failback = args.bool("failback", false);
        if (failback && (!topology || !failover)) {
            throw args.error("failback: true needs topology: auto and failover: auto");
        }
        RestartOptions options = new RestartOptions(
                topology,
                failover,
                failback,
                args.bool("allow_data_loss", false),
                args.bool("data_check", true),
                timeout,
                failoverChoice.equals("manual"));
        String script = command.orElse("systemctl restart " + ShellQuote.quote(unit));
        String what = command.isPresent() ? "redis (command)" : "service " + unit;
        SafeRestart restart = new SafeRestart(options, script, what);
        return ctx -> {
            if (!always && !ctx.state().changedInPlay()) {
                return StepResult.skipped("nothing changed on this host in this play");
            }
            return restart.run(ctx);
        };
    }
}
