package dev.fleetfix.steps;

import dev.fleetfix.bench.host.BenchEngines;
import dev.fleetfix.playbook.Step;
import dev.fleetfix.playbook.StepCatalog;
import dev.fleetfix.playbook.StepDoc;
import dev.fleetfix.playbook.StepSignature;
import dev.fleetfix.redis.load.BenchmarkException;
import dev.fleetfix.steps.facts.FactGatherer;
import dev.fleetfix.steps.model.StepArgs;
import java.util.Collections;
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
    private final Map<String, StepType> types;

    private StepRegistry(Map<String, StepType> types) {
        // in the order they were given: fleetfix doc and the man page list them so
        this.types = Collections.unmodifiableMap(new LinkedHashMap<>(types));
    }

    /**
     * The built-in types, {@code benchmark} without a Redis client: for parsing and for runs whose
     * benchmark engines are replaced ({@link #with(StepType)}).
     */
    public static StepRegistry standard(FactGatherer facts) {
        return standard(facts, BenchEngines.system(host -> {
            throw new BenchmarkException("host " + host.name() + ": no Redis client for benchmarks in this build");
        }));
    }

    /**
     * The built-in types; {@code audit} gathers facts through {@code facts}, {@code benchmark} measures through the
     * {@code engines} the composition root built.
     */
    public static StepRegistry standard(FactGatherer facts, BenchEngines engines) {
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
            BenchmarkStep.on(engines)
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

    /** The documentation of {@code type}, none for a type this build does not know. */
    public Optional<StepDoc> doc(String type) {
        return Optional.ofNullable(types.get(type)).map(StepType::doc);
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
