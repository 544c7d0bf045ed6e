package dev.fleetfix.bench.load;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.fleetfix.bench.FakeTarget;
import dev.fleetfix.bench.plan.LoadSpec;
import dev.fleetfix.bench.plan.SafetyPolicy;
import dev.fleetfix.redis.load.BenchOp;
import dev.fleetfix.redis.load.BenchmarkException;
import dev.fleetfix.redis.load.Operation;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** The fill before a side's rounds: every key of the keyspace written once, then deleted, and nothing else. */
class BuiltinBenchmarkFillTest {
    private final AtomicLong clock = new AtomicLong();
    private final BuiltinBenchmark builtin =
            new BuiltinBenchmark(new LoadGenerator(clock::get, d -> clock.addAndGet(d.toNanos())));

    private static LoadSpec spec(Map<Operation, Integer> mix, long keyspace) {
        return LoadSpec.builder()
                .test("mix")
                .mix(mix)
                .keyspace(keyspace)
                .valueSize(64)
                .warmup(Duration.ZERO)
                .duration(Duration.ofSeconds(1))
                .build();
    }

    @Test
    void everyStringAndCounterKeyIsWrittenOnceInPipelinesAndDeletedAfter() {
        FakeTarget target = new FakeTarget(clock, n -> 1000);
        LoadSpec spec = spec(Map.of(Operation.SET, 1, Operation.GET, 1, Operation.INCR, 1, Operation.LPUSH, 1), 2_500);

        builtin.fill(target, spec, SafetyPolicy.DEFAULT);

        Map<Operation, Long> written =
                target.ops.stream().collect(Collectors.groupingBy(BenchOp::command, Collectors.counting()));
        // strings and counters, each key once; no reads; no list, which a run grows as long as it lasts
        assertThat(written).containsExactlyInAnyOrderEntriesOf(Map.of(Operation.SET, 2_500L, Operation.INCR, 2_500L));
        assertThat(target.ops.stream().map(BenchOp::key).distinct().count()).isEqualTo(5_000);
        assertThat(target.ops).allSatisfy(op -> assertThat(op.key()).startsWith(spec.keyPrefix()));
        assertThat(target.calls.get()).as("pipelines of 1,000").isEqualTo(6);
        assertThat(target.keys).as("every key the fill wrote is deleted").isEmpty();
    }

    @Test
    void aReadOnlyMixFillsNothing() {
        FakeTarget target = new FakeTarget(clock, n -> 1000);

        builtin.fill(target, spec(Map.of(Operation.GET, 1), 1_000), SafetyPolicy.DEFAULT);

        assertThat(target.ops).isEmpty();
    }

    @Test
    void aPacedLoadIsNotFilled() {
        FakeTarget target = new FakeTarget(clock, n -> 1000);

        builtin.fill(
                target,
                spec(Map.of(Operation.SET, 1), 1_000).toBuilder().rate(500).build(),
                SafetyPolicy.DEFAULT);

        assertThat(target.ops).isEmpty();
    }

    @Test
    void errorRepliesEndTheFillAndAreLeftToTheRoundsToCount() {
        FakeTarget target = new FakeTarget(clock, n -> 1000);
        target.errorsPerBatch = 1;

        builtin.fill(target, spec(Map.of(Operation.SET, 1), 100_000), SafetyPolicy.DEFAULT);

        assertThat(target.calls.get()).isEqualTo(1);
        assertThat(target.keys).isEmpty();
    }

    @Test
    void theFillStopsAtAnEvictionAndDeletesWhatItWrote() {
        FakeTarget target = new FakeTarget(clock, n -> 1000);
        target.evictFromCall = 3;

        assertThatThrownBy(() -> builtin.fill(target, spec(Map.of(Operation.SET, 1), 100_000), SafetyPolicy.DEFAULT))
                .isInstanceOf(BenchmarkException.class)
                .hasMessageContaining("evicted");
        assertThat(target.calls.get())
                .as("stopped within one check's pipelines")
                .isLessThanOrEqualTo(10);
        assertThat(target.keys).isEmpty();
    }
}
