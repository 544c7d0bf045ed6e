package dev.fleetfix.bench.load;

import dev.fleetfix.Progress;
import dev.fleetfix.bench.plan.Footprint;
import dev.fleetfix.bench.plan.LoadSpec;
import dev.fleetfix.bench.plan.SafetyGuard;
import dev.fleetfix.bench.plan.SafetyPolicy;
import dev.fleetfix.redis.load.BenchConnection;
import dev.fleetfix.redis.load.BenchOp;
import dev.fleetfix.redis.load.BenchTarget;
import dev.fleetfix.redis.load.Operation;
import dev.fleetfix.redis.load.RunKeys;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
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

    /** How many keys the fill writes in one pipeline. */
    static final int FILL_PIPELINE = 1000;

    /** How many of its pipelines the fill sends between two reads of {@code evicted_keys}. */
    static final int EVICTION_CHECK_BATCHES = 10;

    /**
     * Writes every key of {@code spec}'s keyspace once (its strings and its counters; not its lists, which a run grows
     * for as long as it lasts), in pipelines on one connection under a prefix of its own, then deletes them: Redis's
     * memory grows to what a round's keys take before any round is measured, and each round reuses it.
     *
     * <p>Every round writes under a new prefix and deletes its keys after (so that it deletes nothing else), so each
     * round fills the keyspace anew. Without this fill the first measured round of a side was the one in which Redis
     * grew its memory, and it read slower than the rest: over 30 A/A pairs on the lab the before side's first round
     * had 15 % less throughput and a 44 % higher p99 than the host's mean, the after side's first round, which reused
     * the memory, nothing of the kind (docs/benchmarks-and-verdicts.md#the-first-round-of-a-side). Stops at the first
     * key Redis evicts, failing as a run does; stops at the first error reply, leaving the rounds to count them. A
     * paced load ({@code rate}) is not filled: it was asked to stay gentle, and the fill writes at full speed.
     */
    public void fill(BenchTarget target, LoadSpec spec, SafetyPolicy policy) {
        SafetyGuard.check(target, policy, spec.keyPrefix(), Footprint.of(spec));
        List<Operation> families = Arrays.stream(new Operation[] {Operation.SET, Operation.INCR})
                .filter(spec.mix()::containsKey)
                .toList();
        // a paced load was asked to stay gentle: the fill would write the keyspace at full speed
        if (families.isEmpty() || spec.rate().isPresent()) {
            return;
        }
        String own = RunKeys.under(spec.keyPrefix());
        byte[] value = new byte[spec.valueSize()];
        Arrays.fill(value, (byte) 'x');
        EvictionWatch evictions = new EvictionWatch(target, 0, Long.MAX_VALUE);
        try (BenchConnection connection = target.connect()) {
            List<BenchOp> batch = new ArrayList<>(FILL_PIPELINE);
            int batches = 0;
            for (Operation family : families) {
                for (long n = 0; n < spec.keyspace(); n++) {
                    batch.add(new BenchOp(family, family.key(own, n), value));
                    if (batch.size() == FILL_PIPELINE || n == spec.keyspace() - 1) {
                        int failed = connection.execute(batch);
                        batch.clear();
                        if (++batches % EVICTION_CHECK_BATCHES == 0 || n == spec.keyspace() - 1 || failed > 0) {
                            evictions.checkNow();
                        }
                        if (failed > 0) {
                            // Redis refuses these writes (out of memory, a read-only replica, an ACL): the rounds
                            // meet the same errors, and count and report them
                            return;
                        }
                    }
                }
            }
        } finally {
            target.deleteByPrefix(own);
        }
    }
}
