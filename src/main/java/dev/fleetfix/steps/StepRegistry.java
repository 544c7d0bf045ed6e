package dev.fleetfix.steps;

import dev.fleetfix.playbook.Step;
import dev.fleetfix.playbook.StepCatalog;
import dev.fleetfix.playbook.StepSignature;
import dev.fleetfix.redis.jedis.JedisBenchTarget;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The step types of a build. {@link #standard(FactGatherer)} holds the built-in ones;
 * {@link #with(StepType)} adds or replaces one (tests replace {@code benchmark}'s engines with
 * fakes).
 */
public final class StepRegistry implements StepCatalog {
    /** Connect and read timeout of the benchmark's Redis connections. */
    private static final Duration BENCH_REDIS_TIMEOUT = Duration.ofSeconds(10);

    private final Map<String, StepType> types;

    private StepRegistry(Map<String, StepType> types) {
        this.types = Map.copyOf(types);
    }

    /**
     * The built-in types; {@code audit} uses the audit service, {@code benchmark} the bench engines
     * with the Jedis target from this machine.
     */
    public static StepRegistry standard() {
        return standard(new AuditorFacts(new dev.fleetfix.checks.HostAuditor()));
    }

    public static StepRegistry standard(FactGatherer facts) {
        Map<String, StepType> types = new LinkedHashMap<>();
        for (StepType t : new StepType[] {
            new AuditStep(facts),
            new ThpStep(),
            new PersistThpStep(),
            new SysctlStep(),
            new RedisConfigStep(),
            new RestartRedisStep(),
            new WaitHealthyStep(),
            new CommandStep(),
            new AssertStep(),
            BenchmarkStep.onControlNode(host -> JedisBenchTarget.connect(host, BENCH_REDIS_TIMEOUT))
        }) {
            types.put(t.name(), t);
        }
        return new StepRegistry(types);
    }

    /** A registry with this type added, or replacing the type of the same name. */
    public StepRegistry with(StepType type) {
        Map<String, StepType> more = new LinkedHashMap<>(types);
        more.put(type.name(), type);
        return new StepRegistry(more);
    }

    @Override
    public Optional<StepSignature> signature(String type) {
        return Optional.ofNullable(types.get(type)).map(StepType::signature);
    }

    @Override
    public Set<String> typeNames() {
        return types.keySet();
    }

    /** Prepares a resolved step for its host. */
    public StepHandler prepare(StepArgs args) {
        Step step = args.step();
        StepType type = types.get(step.type());
        if (type == null) {
            throw step.location().error("unknown step type '" + step.type() + "'");
        }
        return type.prepare(args);
    }
}
