package dev.fleetfix.bench;

import java.util.Objects;

/**
 * The {@code builtin} engine as a step runs it: safety check, load, and the benchmark's keys
 * deleted afterwards whatever happened.
 */
public final class BuiltinBenchmark {
    private final LoadGenerator generator;

    public BuiltinBenchmark(LoadGenerator generator) {
        this.generator = Objects.requireNonNull(generator, "generator");
    }

    public LoadResult run(BenchTarget target, LoadSpec spec, SafetyPolicy policy) {
        SafetyGuard.check(target, policy);
        try {
            return generator.run(target, spec);
        } finally {
            target.deleteByPrefix(spec.keyPrefix());
        }
    }
}
