package dev.fleetfix.steps;

import dev.fleetfix.playbook.StepSignature;
import dev.fleetfix.rollout.gate.GateResult;
import dev.fleetfix.rollout.gate.Gates;
import dev.fleetfix.rollout.gate.HealthGate;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * {@code wait_healthy: {timeout: 60s, gates: [ping, role_unchanged, replica_synced,
 * {ping_latency_below: 50ms}]}}: polls the health gates until all pass; a gate that times out fails
 * the host. Gates: {@code ping}, {@code loading_done}, {@code role_unchanged}, {@code
 * replica_synced}, {@code ping_latency_below: DURATION}. Default: ping, loading_done,
 * role_unchanged, replica_synced.
 */
final class WaitHealthyStep implements StepType {
    static final List<Object> DEFAULT_GATES = List.of("ping", "loading_done", "role_unchanged", "replica_synced");

    @Override
    public StepSignature signature() {
        return StepSignature.of("wait_healthy", Set.of("timeout", "gates", "poll"));
    }

    @Override
    public StepHandler prepare(StepArgs args) {
        Duration timeout = args.duration("timeout", Gates.DEFAULT_TIMEOUT);
        Duration poll = args.duration("poll", Duration.ofMillis(500));
        List<?> specs = args.has("gates") ? args.list("gates") : DEFAULT_GATES;
        if (specs.isEmpty()) {
            throw args.error("gates: give at least one gate");
        }
        List<Function<StepContext, Optional<HealthGate>>> gates = new ArrayList<>();
        for (Object spec : specs) {
            gates.add(gate(args, spec, timeout));
        }
        return ctx -> {
            List<HealthGate> now = new ArrayList<>();
            List<String> notes = new ArrayList<>();
            for (var g : gates) {
                g.apply(ctx).ifPresentOrElse(now::add, () -> notes.add("role_unchanged: no role known before"));
            }
            StepContext polling = new StepContext(
                    ctx.host(),
                    ctx.shell(),
                    ctx.redis(),
                    ctx.primaries(),
                    ctx.sentinels(),
                    ctx.check(),
                    ctx.state(),
                    ctx.clock(),
                    ctx.sleeper(),
                    ctx.runStamp(),
                    poll);
            GateResult result = Gates.allOf(now).await(polling.gateTarget());
            String message = result.passed()
                    ? describe(result) + (notes.isEmpty() ? "" : " (" + String.join("; ", notes) + ")")
                    : result.detail();
            return new StepResult(
                    result.passed() ? StepStatus.OK : StepStatus.FAILED,
                    message,
                    List.of(),
                    List.of(),
                    List.of(result),
                    Map.of());
        };
    }

    private static String describe(GateResult all) {
        return "healthy after " + Gates.human(all.elapsed()) + ": "
                + String.join(", ", all.parts().stream().map(GateResult::gate).toList());
    }

    private static Function<StepContext, Optional<HealthGate>> gate(StepArgs args, Object spec, Duration timeout) {
        if (spec instanceof Map<?, ?> map) {
            if (map.size() != 1) {
                throw args.error("gates: a gate with a parameter is one key, like {ping_latency_below: 50ms}");
            }
            var entry = map.entrySet().iterator().next();
            String name = entry.getKey().toString();
            if (!name.equals("ping_latency_below")) {
                throw args.error("gates: '" + name + "' takes no parameter");
            }
            HealthGate g = Gates.pingLatencyBelow(args.parseDuration("ping_latency_below", entry.getValue()))
                    .withTimeout(timeout);
            return ctx -> Optional.of(g);
        }
        String name = spec.toString();
        return switch (name) {
            case "ping" -> fixed(Gates.ping().withTimeout(timeout));
            case "loading_done" -> fixed(Gates.loadingDone().withTimeout(timeout));
            case "replica_synced" -> fixed(Gates.replicaSynced().withTimeout(timeout));
            case "role_unchanged" -> ctx -> ctx.state()
                    .fact("redis.role_expected")
                    .filter(r -> !r.equals("unknown"))
                    .or(() -> ctx.state().fact("redis.role_before").filter(r -> !r.equals("unknown")))
                    .or(() -> ctx.state().fact("redis.role"))
                    .map(role -> Gates.roleUnchanged(role).withTimeout(timeout));
            case "ping_latency_below" -> throw args.error(
                    "gates: ping_latency_below needs a bound: {ping_latency_below: 50ms}");
            default -> throw args.error("gates: unknown gate '" + name
                    + "' (known: ping, loading_done, role_unchanged, replica_synced, ping_latency_below)");
        };
    }

    private static Function<StepContext, Optional<HealthGate>> fixed(HealthGate gate) {
        return ctx -> Optional.of(gate);
    }
}
