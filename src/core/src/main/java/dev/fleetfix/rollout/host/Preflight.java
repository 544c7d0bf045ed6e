package dev.fleetfix.rollout.host;

import dev.fleetfix.Crash;
import dev.fleetfix.redis.RedisException;
import dev.fleetfix.redis.RedisNode;
import dev.fleetfix.rollout.event.HostOutcome;
import dev.fleetfix.rollout.plan.RunPlan.PlannedStep;
import dev.fleetfix.steps.facts.FactCondition;
import dev.fleetfix.steps.model.HostState;
import dev.fleetfix.steps.model.StepContext;
import dev.fleetfix.steps.model.StepFailure;
import dev.fleetfix.steps.model.StepResult;
import dev.fleetfix.steps.model.StepStatus;
import dev.fleetfix.transport.TransportException;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Before a host's first change in apply: its steps' check-mode forecast, in order, on a copy of its state, so that
 * each step judges the host as the steps before it would leave it. A step that forecasts a failure refuses the host
 * before anything is changed on it: a failure found late (a restart route that does not exist, a restart refused
 * for lack of persistence) would leave the host half-done. A Redis that refuses fleetfix's credentials refuses the
 * host too, when a step talks to Redis: the audit only notes it, and every later step would fail on it.
 *
 * <p>Check mode reads and writes nothing; what a step cannot know before the change (a benchmark's outcome, whether
 * Redis comes back) still fails later, in the step itself.
 */
final class Preflight {
    /** Step types that talk to the host's Redis: a Redis that refuses the credentials fails each of them. */
    private static final Set<String> USE_REDIS = Set.of("benchmark", "restart_redis", "wait_healthy", "redis_config");

    private static final Duration ASK = Duration.ofSeconds(3);

    /** Step types that only read the host: their forecast is what they would find, so the run may take it. */
    private static final Set<String> READS_ONLY = Set.of("audit");

    /** Why the host is refused, as its line says it. */
    record Refusal(HostOutcome outcome, String reason) {}

    /**
     * The forecast's verdict, and what its reading steps found before any step would change the host, by step index:
     * the run takes those instead of reading the host again, as long as it has changed nothing.
     */
    record Forecast(Optional<Refusal> refusal, Map<Integer, StepResult> reads) {
        static Forecast refused(Refusal refusal) {
            return new Forecast(Optional.of(refusal), Map.of());
        }
    }

    private Preflight() {}

    /**
     * @param ctx the host's context in check mode, over a state of its own ({@link #scratch})
     * @return why the host is refused, or empty when the host may go on: every step's forecast passes, or the first
     *     that fails comes before any change (the step itself then fails as it would have, with nothing changed)
     * @throws TransportException when the host could not be asked (the caller retries: nothing here changes it)
     */
    static Forecast check(StepContext ctx, List<PlannedStep> steps) throws InterruptedException {
        if (!ctx.check()) {
            throw new IllegalArgumentException("preflight: the context must be in check mode");
        }
        if (steps.stream().anyMatch(s -> USE_REDIS.contains(s.step().type()))) {
            Optional<Refusal> credentials = credentials(ctx);
            if (credentials.isPresent()) {
                return Forecast.refused(credentials.get());
            }
        }
        HostState state = ctx.state();
        boolean changes = false;
        Map<Integer, StepResult> reads = new HashMap<>();
        for (PlannedStep planned : steps) {
            FactCondition.Outcome when =
                    planned.when().map(c -> c.evaluate(state.facts())).orElse(new FactCondition.Outcome(true, ""));
            if (!when.holds()) {
                continue;
            }
            String name = planned.step().name();
            StepResult result;
            try {
                result = planned.handler().run(ctx);
            } catch (TransportException e) {
                throw e;
            } catch (StepFailure | RedisException e) {
                result = StepResult.failed(e.getMessage());
            } catch (RuntimeException | Error e) {
                result = StepResult.failed(Crash.describe(e));
            }
            if (result.status().stopsHost()) {
                if (!changes) {
                    return new Forecast(Optional.empty(), reads);
                }
                HostOutcome outcome =
                        result.status() == StepStatus.UNREACHABLE ? HostOutcome.UNREACHABLE : HostOutcome.FAILED;
                return Forecast.refused(new Refusal(outcome, refused(name, result.message())));
            }
            if (!changes && READS_ONLY.contains(planned.step().type())) {
                reads.put(planned.index(), result);
            }
            state.learn(result.facts());
            state.predict(result.predicted());
            if (result.status() == StepStatus.CHANGED) {
                state.markChanged();
                changes = true;
            }
        }
        return new Forecast(Optional.empty(), reads);
    }

    /**
     * A copy of the host's state for the forecast: its facts, and whether this play changed its machine already; its
     * changes are its own, so the real state and the machine's other instances never see them. What the forecast
     * reads of the host's services is the run's ({@link HostState#services()}): a forecast changes nothing.
     */
    static HostState scratch(HostState real, String play) {
        HostState copy = new HostState(new HostState.Machine(), real.services());
        copy.startPlay(play);
        copy.learn(real.facts());
        copy.predict(real.predicted());
        if (real.changedInPlay()) {
            copy.markChanged();
        }
        return copy;
    }

    /**
     * Only refused credentials are judged here: a Redis that is down may be what the run starts, and one that does
     * not answer is judged by the steps that need it.
     */
    private static Optional<Refusal> credentials(StepContext ctx) {
        try (RedisNode node = ctx.redis().open(ASK)) {
            node.ping();
            return Optional.empty();
        } catch (RedisException e) {
            if (e.kind() != RedisException.Kind.AUTH) {
                return Optional.empty();
            }
            return Optional.of(new Refusal(
                    HostOutcome.FAILED,
                    "refused before any change: redis auth failed (" + oneLine(e.detail())
                            + "): check redis_password / redis_user"));
        }
    }

    private static String refused(String step, String why) {
        String text = why == null ? "" : why.replace(StepResult.CHECK_NOTE, "").replaceAll("(; )+$", "");
        return "refused before any change: " + step + ": " + oneLine(text.replaceFirst("^apply would fail: ", ""));
    }

    /** The host's line is one line: what a host printed over several is joined. */
    private static String oneLine(String text) {
        return text.strip().replaceAll("\\s*\\R\\s*", "; ");
    }
}
