package dev.fleetfix.bench.load;

import dev.fleetfix.Progress;
import dev.fleetfix.bench.plan.Footprint;
import dev.fleetfix.bench.plan.LoadSpec;
import dev.fleetfix.bench.plan.SafetyGuard;
import dev.fleetfix.bench.plan.SafetyPolicy;
import dev.fleetfix.redis.load.BenchTarget;
import dev.fleetfix.redis.load.RunKeys;
import java.util.Objects;

/**
 * The {@code builtin} engine as a step runs it: safety check, load under a prefix of the run's own
 * ({@link RunKeys}), and those keys deleted afterwards whatever happened.
 */
public final class BuiltinBenchmark {
    private final LoadGenerator generator;

    public BuiltinBenchmark(LoadGenerator generator) {
        this.generator = Objects.requireNonNull(generator, "generator");
    }

    public LoadResult run(BenchTarget target, LoadSpec spec, SafetyPolicy policy) {
        return run(target, spec, policy, Progress.Listener.none());
    }

    /** As {@link #run(BenchTarget, LoadSpec, SafetyPolicy)}, telling the load's progress. */
    public LoadResult run(BenchTarget target, LoadSpec spec, SafetyPolicy policy, Progress.Listener progress) {
        SafetyGuard.check(target, policy, spec.keyPrefix(), Footprint.of(spec));
        String own = RunKeys.under(spec.keyPrefix());
        try {
            return generator.run(target, spec.withKeyPrefix(own), progress);
        } finally {
            target.deleteByPrefix(own);
        }
    }
}
