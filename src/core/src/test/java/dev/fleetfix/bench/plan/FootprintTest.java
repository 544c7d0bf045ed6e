package dev.fleetfix.bench.plan;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fleetfix.redis.load.Operation;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

class FootprintTest {
    /** The key names a run writes: "fleetfix:bench:r3f9a1c07:str:123456". */
    private static final int KEY = "fleetfix:bench:r3f9a1c07:str:200000".length();

    @Test
    void jemallocRoundsUpToItsSizeClasses() {
        assertThat(Footprint.jemalloc(7)).isEqualTo(16);
        assertThat(Footprint.jemalloc(39)).isEqualTo(48);
        assertThat(Footprint.jemalloc(68)).isEqualTo(80);
        assertThat(Footprint.jemalloc(128)).isEqualTo(128);
        assertThat(Footprint.jemalloc(129)).isEqualTo(160);
        assertThat(Footprint.jemalloc(2048)).isEqualTo(2048);
        assertThat(Footprint.jemalloc(2054)).isEqualTo(2560);
    }

    /**
     * used_memory grown per key by SET and INCR of 100,000 random keys under a run prefix, Redis
     * 7.0.15 with jemalloc 5.3 (bench/results/benchmark-footprint.txt): the estimate is never below.
     */
    @Test
    void aKeyCostsAtLeastWhatRedisWasMeasuredToTake() {
        assertThat(Footprint.stringKey(KEY, 3)).isBetween(123L, 123L * 5 / 4);
        assertThat(Footprint.stringKey(KEY, 64)).isBetween(186L, 186L * 5 / 4);
        assertThat(Footprint.stringKey(KEY, 2048)).isBetween(2666L, 2666L * 5 / 4);
        assertThat(Footprint.counterKey(KEY)).isBetween(90L, 90L * 5 / 4);
    }

    /** The run: -d 2048 -r 200000 -t set for 6 s, 10 connections. */
    @Test
    void theBuiltinLoadCountsEveryKeyOfItsKeyspaceAndItsConnections() {
        LoadSpec spec = LoadSpec.builder()
                .mix(Map.of(Operation.SET, 1))
                .valueSize(2048)
                .keyspace(200_000)
                .duration(Duration.ofSeconds(6))
                .build();

        Footprint f = Footprint.of(spec);

        long perKey = 64 + 48 + 2560;
        long perConnection = 24 * 1024 + 2 * 2560;
        assertThat(f.keys()).isEqualTo(200_000);
        assertThat(f.bytes()).isEqualTo(200_000 * perKey + 10 * perConnection);
        assertThat(f.bounded()).isTrue();
        assertThat(f.what()).isEqualTo("200,000 keys of 2,048-byte values, about 509.9 MiB with their connections");
    }

    @Test
    void getWritesNothingAndARequestBoundWithoutWarmUpBoundsTheKeys() {
        LoadSpec reads = LoadSpec.builder().mix(Map.of(Operation.GET, 1)).build();
        assertThat(Footprint.of(reads).keys()).isZero();

        LoadSpec few = LoadSpec.builder()
                .mix(Map.of(Operation.SET, 1, Operation.INCR, 1))
                .warmup(Duration.ZERO)
                .requests(500)
                .build();
        assertThat(Footprint.of(few).keys()).isEqualTo(1_000);
        assertThat(Footprint.of(few.withWarmup(Duration.ofSeconds(1))).keys()).isEqualTo(200_000);
    }

    @Test
    void lpushForATimeHasNoBoundAndForARequestCountOneEntryAPush() {
        LoadSpec timed = LoadSpec.builder().mix(Map.of(Operation.LPUSH, 1)).build();
        assertThat(Footprint.of(timed).bounded()).isFalse();

        RedisBenchmarkSpec counted = RedisBenchmarkSpec.defaults("127.0.0.1", 6379)
                .withTests(List.of(Operation.LPUSH))
                .withRequests(1_000_000)
                .withDataSize(64);
        Footprint f = Footprint.of(counted);
        assertThat(f.bounded()).isTrue();
        assertThat(f.keys()).isEqualTo(100_000);
        assertThat(f.bytes()).isGreaterThan(1_000_000L * 70);
    }

    @Test
    void redisBenchmarkTestsAddUpAndSetAndGetShareTheirKeys() {
        RedisBenchmarkSpec spec = new RedisBenchmarkSpec(
                "127.0.0.1",
                6379,
                List.of(Operation.SET, Operation.GET, Operation.INCR),
                1_000_000,
                50,
                64,
                1,
                OptionalLong.of(100_000),
                OptionalInt.empty(),
                LoadSpec.DEFAULT_PREFIX,
                Duration.ofMinutes(1));

        assertThat(Footprint.of(spec).keys()).isEqualTo(200_000);
        assertThat(Footprint.of(spec.withTests(List.of(Operation.GET))).keys()).isZero();
    }
}
