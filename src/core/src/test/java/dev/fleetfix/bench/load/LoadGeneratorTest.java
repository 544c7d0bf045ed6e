package dev.fleetfix.bench.load;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.fleetfix.bench.BenchResult;
import dev.fleetfix.bench.FakeTarget;
import dev.fleetfix.bench.Metric;
import dev.fleetfix.bench.plan.LoadSpec;
import dev.fleetfix.bench.plan.SafetyPolicy;
import dev.fleetfix.redis.load.BenchmarkException;
import dev.fleetfix.redis.load.Operation;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

class LoadGeneratorTest {
    private static final long MS = 1_000_000;

    private final AtomicLong clock = new AtomicLong(1_000 * MS);
    private final LoadGenerator generator = new LoadGenerator(clock::get, d -> clock.addAndGet(d.toNanos()));

    private static LoadSpec oneConnection() {
        return LoadSpec.builder()
                .test("SET")
                .mix(Map.of(Operation.SET, 1))
                .connections(1)
                .warmup(Duration.ZERO)
                .duration(Duration.ofSeconds(1))
                .build();
    }

    /** Every call takes 0.1 ms, except call 100, which stalls for 50 ms (a fork, say). */
    private FakeTarget stallingTarget() {
        return new FakeTarget(clock, n -> n == 100 ? 50 * MS : MS / 10);
    }

    @Test
    void pacedLoadCountsTheStallInEveryRequestThatShouldHaveBeenSentDuringIt() {
        LoadResult paced = generator.run(
                stallingTarget(), oneConnection().toBuilder().rate(1000).build());

        BenchResult r = paced.result();
        assertThat(r.requests()).hasValue(1000);
        Histogram h = HistogramLatency.decode(r.latency().histogram().orElseThrow());
        // requests intended at 100 ms .. 150 ms all waited behind the stall
        assertThat(h.getCountBetweenValues(10_000, 60_000)).isGreaterThanOrEqualTo(40);
        assertThat(Metric.P99.valueOf(r).orElseThrow()).isGreaterThan(10);
        assertThat(Metric.MAX.valueOf(r).orElseThrow()).isCloseTo(50.1, within(0.1));
        assertThat(r.rps()).isCloseTo(1000, within(10.0));
    }

    @Test
    void unpacedLoadSeesTheStallOnceOnly() {
        LoadResult unpaced = generator.run(stallingTarget(), oneConnection());

        BenchResult r = unpaced.result();
        Histogram h = HistogramLatency.decode(r.latency().histogram().orElseThrow());
        assertThat(h.getCountBetweenValues(10_000, 60_000)).isEqualTo(1);
        assertThat(Metric.P99.valueOf(r).orElseThrow()).isLessThan(1);
        assertThat(Metric.MAX.valueOf(r).orElseThrow()).isCloseTo(50, within(0.1));
    }

    @Test
    void warmUpIsNeitherTimedNorCounted() {
        FakeTarget target = new FakeTarget(clock, n -> MS);

        LoadResult result = generator.run(target, oneConnection().withWarmup(Duration.ofMillis(200)));

        assertThat(target.calls.get()).isBetween(1199, 1201);
        assertThat(result.result().requests().orElseThrow()).isBetween(999L, 1001L);
        assertThat(result.result().rps()).isCloseTo(1000, within(5.0));
        assertThat(result.measured()).isBetween(Duration.ofMillis(995), Duration.ofMillis(1005));
    }

    @Test
    void aRequestCountIsMetExactlyAcrossConnectionsAndPipelines() {
        FakeTarget target = new FakeTarget(clock, n -> MS);
        LoadSpec spec = oneConnection().toBuilder()
                .connections(4)
                .pipeline(16)
                .requests(1000)
                .mix(Map.of(Operation.SET, 3, Operation.GET, 1))
                .build();

        LoadResult result = generator.run(target, spec);

        assertThat(result.result().requests()).hasValue(1000);
        assertThat(target.ops).hasSize(1000);
        long sets =
                target.ops.stream().filter(o -> o.command() == Operation.SET).count();
        assertThat(sets).isBetween(650L, 850L);
    }

    @Test
    void writesOnlyUnderThePrefixWithinTheKeyspace() {
        FakeTarget target = new FakeTarget(clock, n -> MS);
        LoadSpec spec = oneConnection().toBuilder()
                .keyPrefix("t:")
                .keyspace(50)
                .requests(2000)
                .valueSize(7)
                .mix(Map.of(Operation.SET, 1, Operation.INCR, 1, Operation.LPUSH, 1, Operation.GET, 1))
                .build();

        generator.run(target, spec);

        assertThat(target.ops).allSatisfy(op -> assertThat(op.key()).matches("t:(str|ctr|list):\\d+"));
        assertThat(target.keys).hasSizeLessThanOrEqualTo(150);
        assertThat(target.ops.get(0).value()).hasSize(7);
    }

    @Test
    void countsErrorReplies() {
        FakeTarget target = new FakeTarget(clock, n -> MS);
        target.errorsPerBatch = 1;

        LoadResult result = generator.run(target, oneConnection().withRequests(10));

        assertThat(result.errors()).isEqualTo(10);
    }

    @Test
    void percentilesNeverDecrease() {
        BenchResult r = generator
                .run(stallingTarget(), oneConnection().toBuilder().rate(1000).build())
                .result();

        double previous = 0;
        for (Metric m : new Metric[] {Metric.P50, Metric.P90, Metric.P99, Metric.P999, Metric.P9999, Metric.MAX}) {
            assertThat(m.valueOf(r).orElseThrow()).isGreaterThanOrEqualTo(previous);
            previous = m.valueOf(r).orElseThrow();
        }
    }

    @Test
    void rejectsBadSpecsNamingTheField() {
        assertThatThrownBy(() -> LoadSpec.defaults().withConnections(0))
                .hasMessage("connections must be 1..10000, was 0");
        assertThatThrownBy(() -> LoadSpec.builder().rate(-1).build()).hasMessage("rate must be > 0, was -1.0");
        assertThatThrownBy(() -> LoadSpec.defaults().withKeyPrefix(" ")).hasMessage("keyPrefix must not be blank");
        assertThatThrownBy(() -> LoadSpec.builder().mix(Map.of()).build())
                .hasMessage("mix must name at least one command");
    }

    /** Regression: error replies were counted as throughput and never reached the result. */
    @Test
    void errorRepliesReachTheResult() {
        FakeTarget refusing = new FakeTarget(clock, n -> MS / 10);
        refusing.errorsPerBatch = 1;

        LoadResult r = generator.run(refusing, oneConnection().withRequests(2_000));

        assertThat(r.errors()).isEqualTo(2_000);
        assertThat(r.result().errors()).isEqualTo(2_000);
    }

    /**
     * Regression: a run at maxmemory evicted every user key with a TTL and went on. From the fiftieth
     * pipeline each one evicts a key; the check after the first 100 ms of load sees it and every
     * connection stops, instead of running the whole second (10,000 pipelines).
     */
    @Test
    void theFirstEvictionStopsTheLoadAndFailsTheRun() {
        FakeTarget evicting = new FakeTarget(clock, n -> MS / 10);
        evicting.evictFromCall = 50;

        assertThatThrownBy(() -> generator.run(evicting, oneConnection().withConnections(4)))
                .isInstanceOf(BenchmarkException.class)
                .hasMessageContaining("host redis-1: Redis evicted ")
                .hasMessageContaining("during the benchmark (evicted_keys 0 -> ")
                .hasMessageContaining("stopped at the first eviction seen");
        assertThat(evicting.calls.get()).isLessThan(1_200);
    }

    @Test
    void theBuiltinEngineDeletesItsKeysWhenAnEvictionStopsIt() {
        FakeTarget evicting = new FakeTarget(clock, n -> MS / 10);
        evicting.keys.add("session:1");
        evicting.evictFromCall = 50;

        assertThatThrownBy(() -> new BuiltinBenchmark(generator)
                        .run(evicting, oneConnection().withKeyspace(1_000_000), SafetyPolicy.DEFAULT))
                .hasMessageContaining("Redis evicted");
        assertThat(evicting.keys).containsExactly("session:1");
    }

    @Test
    void aRedisThatDoesNotSayWhatItEvictedIsNotLoaded() {
        FakeTarget silent = new FakeTarget(clock, n -> MS / 10);
        silent.info.put("stats", Map.of("evicted_keys", "?"));

        assertThatThrownBy(() -> generator.run(silent, oneConnection()))
                .hasMessage("host redis-1: cannot watch for evictions during the benchmark: INFO stats has no"
                        + " evicted_keys number ('?')");
        assertThat(silent.calls.get()).isZero();
    }
}
