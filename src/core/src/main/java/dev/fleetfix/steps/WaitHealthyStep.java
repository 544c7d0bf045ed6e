package dev.fleetfix.steps;

import dev.fleetfix.Durations;
import dev.fleetfix.health.GateResult;
import dev.fleetfix.health.Gates;
import dev.fleetfix.health.HealthGate;
import dev.fleetfix.playbook.StepDoc;
import dev.fleetfix.playbook.StepSignature;
import dev.fleetfix.redis.RedisException;
import dev.fleetfix.redis.RedisNode;
import dev.fleetfix.steps.model.Predicted;
import dev.fleetfix.steps.model.StepArgs;
import dev.fleetfix.steps.model.StepContext;
import dev.fleetfix.steps.model.StepResult;
import dev.fleetfix.steps.model.StepStatus;
import dev.fleetfix.steps.restart.SafeRestart;
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
 * role_unchanged, replica_synced. In check mode the gates are looked at once and never awaited
 * (see {@link #forecast}).
 */
final class WaitHealthyStep implements StepType {
    private static final Duration PROBE_TIMEOUT = Duration.ofSeconds(2);
    static final List<Object> DEFAULT_GATES = List.of("ping", "loading_done", "role_unchanged", "replica_synced");

    @Override
    public StepSignature signature() {
        return StepSignature.of("wait_healthy", Set.of("timeout", "gates", "poll"));
    }

    @Override
    public StepDoc doc() {
        return StepDoc.of(
                "Polls health gates until all pass; a gate that times out fails the host.",
                "- wait_healthy: {timeout: 60s, gates: [ping, role_unchanged, {ping_latency_below: 50ms}]}",
                new StepDoc.Arg(
                        "timeout", "duration", "60s", "- wait_healthy: {timeout: 2m}", "How long each gate may take."),
                new StepDoc.Arg(
                        "gates",
                        "list of ping, loading_done, role_unchanged, replica_synced, {ping_latency_below: DURATION}",
                        "[ping, loading_done, role_unchanged, replica_synced]",
                        "- wait_healthy: {gates: [ping, replica_synced]}",
                        "The gates that must pass."),
                new StepDoc.Arg(
                        "poll",
                        "duration",
                        "500ms",
                        "- wait_healthy: {poll: 1s}",
                        "How often the gates are looked at."));
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
                Optional<HealthGate> gate = g.apply(ctx);
                gate.ifPresentOrElse(
                        now::add, () -> notes.add("role_unchanged: Redis was down before: it had no role to keep"));
            }
            StepContext polling = ctx.withPollInterval(poll);
            if (ctx.check()) {
                return forecast(polling, Gates.allOf(now), timeout, notes);
            }
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

    /**
     * Check mode: every gate is looked at once and never waited on. Where an earlier step would
     * have restarted Redis, what is seen now is not what apply would see: the result says what
     * apply would wait for. A Redis that does not answer and that nothing in the run starts would
     * fail apply's gates for real, and fails the host here too.
     */
    private static StepResult forecast(StepContext ctx, HealthGate gates, Duration timeout, List<String> notes) {
        GateResult seen = gates.lookOnce(ctx.gateTarget());
        String names =
                String.join(", ", seen.parts().stream().map(GateResult::gate).toList());
        String bound = "up to " + Durations.seconds(timeout);
        String suffix = notes.isEmpty() ? "" : " (" + String.join("; ", notes) + ")";
        Optional<String> redis = ctx.state().predicted(Predicted.REDIS);
        if (redis.isPresent()) {
            String wait = "apply waits " + bound + " once Redis is " + redis.get();
            String now = seen.passed() ? "all pass now" : "now: " + seen.detail();
            return predicted(
                    StepStatus.OK,
                    "forecast: Redis would be " + redis.get() + " by then; apply would wait " + bound + " each for "
                            + names + " (not awaited in check mode; " + now + ")" + suffix,
                    seen,
                    part -> wait);
        }
        if (seen.passed()) {
            return predicted(
                    StepStatus.OK,
                    "healthy now: " + names + " (looked at once in check mode)" + suffix,
                    seen,
                    part -> "passes now: apply would not wait");
        }
        Optional<String> down = doesNotAnswer(ctx);
        if (down.isPresent()) {
            return predicted(
                    StepStatus.FAILED,
                    "Redis does not answer (" + down.get() + ") and no step of this run starts it: apply would"
                            + " wait " + bound + " for " + names + " and fail",
                    seen,
                    part -> part.passed() ? "passes now" : "apply would wait " + bound + " and fail");
        }
        List<String> waiting = seen.parts().stream()
                .filter(p -> !p.passed())
                .map(p -> p.gate() + " (now: " + p.detail() + ")")
                .toList();
        return predicted(
                StepStatus.OK,
                "forecast: apply would wait " + bound + " for " + String.join(", ", waiting)
                        + " (not awaited in check mode)" + suffix,
                seen,
                part -> part.passed() ? "passes now: apply would not wait" : "apply would wait " + bound);
    }

    private static StepResult predicted(
            StepStatus status, String message, GateResult seen, Function<GateResult, String> forecast) {
        GateResult marked = new GateResult(
                seen.gate(),
                seen.passed(),
                seen.detail(),
                seen.elapsed(),
                seen.parts().stream()
                        .map(p -> p.withForecast(forecast.apply(p)))
                        .toList(),
                Optional.of(seen.passed() ? "passes now" : "looked at once, not awaited"));
        return new StepResult(status, message, List.of(), List.of(), List.of(marked), Map.of());
    }

    /** Why Redis does not answer PING now, if it does not. */
    private static Optional<String> doesNotAnswer(StepContext ctx) {
        try (RedisNode node = ctx.redis().open(PROBE_TIMEOUT)) {
            node.ping();
            return Optional.empty();
        } catch (RedisException e) {
            return Optional.of(e.getMessage());
        }
    }

    private static String describe(GateResult all) {
        return "healthy after " + Durations.seconds(all.elapsed()) + ": "
                + String.join(", ", all.parts().stream().map(GateResult::gate).toList());
    }

    /**
     * The role the host must have, from this play's facts; none when Redis was known to be down before (it had
     * none to keep). A role that nothing read fails the gate at once: passing would call a moved role unchanged.
     */
    private static Optional<HealthGate> roleUnchanged(StepContext ctx, Duration timeout) {
        Optional<String> role = ctx.state()
                .fact("redis.role_expected")
                .filter(r -> !r.equals("unknown"))
                .or(() -> ctx.state().fact("redis.role_before").filter(r -> !r.equals("unknown")))
                .or(() -> ctx.state().fact("redis.role").filter(r -> !r.equals("unknown")));
        if (role.isPresent() && role.get().equals(SafeRestart.NO_ROLE)) {
            return Optional.empty();
        }
        return Optional.of(role.map(r -> Gates.roleUnchanged(r).withTimeout(timeout))
                .orElseGet(() -> Gates.unjudged(
                        "role_unchanged",
                        "no role known before (no audit or restart_redis earlier in the play read it): a role that"
                                + " moved cannot be told from one that did not")));
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
            case "role_unchanged" -> ctx -> roleUnchanged(ctx, timeout);
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
