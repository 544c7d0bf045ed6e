package dev.fleetfix.bench.plan;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.fleetfix.bench.FakeTarget;
import dev.fleetfix.bench.load.BuiltinBenchmark;
import dev.fleetfix.bench.load.LoadGenerator;
import dev.fleetfix.redis.load.BenchmarkRefusedException;
import dev.fleetfix.redis.load.Operation;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class SafetyGuardTest {
    private final FakeTarget target = new FakeTarget(new AtomicLong(), n -> 0);

    private void memory(long used, long max, String policy) {
        target.info.put(
                "memory",
                Map.of(
                        "used_memory",
                        Long.toString(used),
                        "maxmemory",
                        Long.toString(max),
                        "maxmemory_policy",
                        policy));
    }

    @Test
    void allowsAPrimaryWithoutMemoryLimit() {
        memory(50_000_000_000L, 0, "allkeys-lru");

        assertThatCode(() -> SafetyGuard.check(target, SafetyPolicy.DEFAULT, Footprint.NONE))
                .doesNotThrowAnyException();
    }

    @Test
    void allowsAPrimaryWithRoomThatNeverEvicts() {
        memory(700, 1000, "noeviction");

        assertThatCode(() -> SafetyGuard.check(target, SafetyPolicy.DEFAULT, Footprint.NONE))
                .doesNotThrowAnyException();
    }

    @Test
    void refusesANearlyFullPrimaryUnlessForced() {
        memory(850, 1000, "noeviction");

        assertThatThrownBy(() -> SafetyGuard.check(target, SafetyPolicy.DEFAULT, Footprint.NONE))
                .isInstanceOf(BenchmarkRefusedException.class)
                .hasMessage("host redis-1: refusing to benchmark: used_memory is 85 % of maxmemory (850 of 1000 bytes),"
                        + " above 80 % (use --force to run anyway)");
        assertThatCode(() -> SafetyGuard.check(target, SafetyPolicy.DEFAULT.forced(), Footprint.NONE))
                .doesNotThrowAnyException();
    }

    @Test
    void refusesAPrimaryThatWouldEvictUserKeys() {
        memory(100, 1000, "allkeys-lru");

        assertThatThrownBy(() -> SafetyGuard.check(target, SafetyPolicy.DEFAULT, Footprint.NONE))
                .hasMessageContaining("maxmemory-policy allkeys-lru would evict user keys");
    }

    @Test
    void namesEveryReason() {
        memory(990, 1000, "allkeys-lfu");

        assertThatThrownBy(() -> SafetyGuard.check(target, SafetyPolicy.DEFAULT, Footprint.NONE))
                .isInstanceOfSatisfying(BenchmarkRefusedException.class, e -> assertThat(e.reasons())
                        .hasSize(2));
    }

    @Test
    void anOldRedisWithoutMaxmemoryInInfoIsAskedThroughConfig() {
        target.info.put("memory", Map.of("used_memory", "900"));
        target.config.put("maxmemory", "1000");
        target.config.put("maxmemory-policy", "noeviction");

        assertThatThrownBy(() -> SafetyGuard.check(target, SafetyPolicy.DEFAULT, Footprint.NONE))
                .hasMessageContaining("used_memory is 90 % of maxmemory");
    }

    @Test
    void aMemoryLimitThatCannotBeReadRefusesUnlessForced() {
        target.info.put("memory", Map.of("used_memory", "900"));

        assertThatThrownBy(() -> SafetyGuard.check(target, SafetyPolicy.DEFAULT, Footprint.NONE))
                .hasMessageContaining("maxmemory could not be read (not in INFO memory, CONFIG GET refused)");
        assertThatCode(() -> SafetyGuard.check(target, SafetyPolicy.DEFAULT.forced(), Footprint.NONE))
                .doesNotThrowAnyException();
    }

    @Test
    void aRoleThatCannotBeReadIsNotTakenForAPrimary() {
        target.info.put("replication", Map.of());

        assertThatThrownBy(() -> SafetyGuard.check(target, SafetyPolicy.DEFAULT, Footprint.NONE))
                .hasMessageContaining("its role could not be read");
    }

    @Test
    void refusesAReplicaEvenWhenForced() {
        target.info.put("replication", Map.of("role", "slave"));

        assertThatThrownBy(() -> SafetyGuard.check(target, SafetyPolicy.DEFAULT.forced(), Footprint.NONE))
                .hasMessageContaining("read-only replica")
                .hasMessageNotContaining("--force");
    }

    @Test
    void theBuiltinEngineChecksFirstAndCleansUpAfter() {
        AtomicLong clock = new AtomicLong();
        FakeTarget t = new FakeTarget(clock, n -> 1_000_000);
        t.keys.add("user:1");
        LoadGenerator generator = new LoadGenerator(clock::get, d -> clock.addAndGet(d.toNanos()));

        new BuiltinBenchmark(generator).run(t, LoadSpec.defaults().withRequests(500), SafetyPolicy.DEFAULT);

        assertThat(t.keys).containsExactly("user:1");

        t.info.put("memory", Map.of("used_memory", "900", "maxmemory", "1000"));
        int callsBefore = t.calls.get();
        assertThatThrownBy(() -> new BuiltinBenchmark(generator).run(t, LoadSpec.defaults(), SafetyPolicy.DEFAULT))
                .isInstanceOf(BenchmarkRefusedException.class);
        assertThat(t.calls.get()).isEqualTo(callsBefore);
    }

    @Test
    void refusesAPrefixThatAlreadyHoldsKeysAndSaysHowMany() {
        target.keys.addAll(java.util.List.of("user:1", "user:2", "other:1"));

        assertThatThrownBy(() -> SafetyGuard.check(target, SafetyPolicy.DEFAULT, "user:", Footprint.NONE))
                .isInstanceOf(BenchmarkRefusedException.class)
                .hasMessage("host redis-1: refusing to benchmark: 2 keys already exist under the prefix 'user:'; they"
                        + " are not the benchmark's: choose a prefix of its own (--prefix, or prefix: in a playbook)"
                        + " (use --force to run anyway)");
        assertThatCode(() -> SafetyGuard.check(target, SafetyPolicy.DEFAULT, "fleetfix:bench:", Footprint.NONE))
                .doesNotThrowAnyException();
    }

    @Test
    void manyExistingKeysAreCountedAsAtLeast() {
        for (int i = 0; i < 5000; i++) {
            target.keys.add("user:" + i);
        }
        assertThatThrownBy(() -> SafetyGuard.check(target, SafetyPolicy.DEFAULT, "user:", Footprint.NONE))
                .hasMessageContaining("at least 1000 keys already exist under the prefix 'user:'");
    }

    @Test
    void aBenchmarkDeletesOnlyTheKeysItWroteEvenWhenForcedOntoAUsedPrefix() {
        AtomicLong clock = new AtomicLong();
        FakeTarget t = new FakeTarget(clock, n -> 1_000_000);
        t.keys.addAll(java.util.List.of("user:1", "user:2"));
        LoadGenerator generator = new LoadGenerator(clock::get, d -> clock.addAndGet(d.toNanos()));
        LoadSpec underUser = LoadSpec.defaults().withRequests(500).withKeyPrefix("user:");

        assertThatThrownBy(() -> new BuiltinBenchmark(generator).run(t, underUser, SafetyPolicy.DEFAULT))
                .isInstanceOf(BenchmarkRefusedException.class);
        assertThat(t.keys).containsExactlyInAnyOrder("user:1", "user:2");

        new BuiltinBenchmark(generator).run(t, underUser, SafetyPolicy.DEFAULT.forced());
        assertThat(t.keys).containsExactlyInAnyOrder("user:1", "user:2");
    }

    /** The issue's run: -d 2048 -r 200000 -t set for 6 s. */
    private static final Footprint ISSUE_RUN = Footprint.of(LoadSpec.builder()
            .mix(Map.of(Operation.SET, 1))
            .valueSize(2048)
            .keyspace(200_000)
            .duration(java.time.Duration.ofSeconds(6))
            .build());

    /**
     * Regression: at 75 % of maxmemory every policy let a benchmark in whose keys need more than the
     * quarter left; volatile-lru then evicted all 100,000 user keys with a TTL, and noeviction failed
     * the users' own SETs. Refused under every policy, and --force does not override it.
     */
    @ParameterizedTest
    @ValueSource(
            strings = {
                "noeviction",
                "allkeys-lru",
                "volatile-lru",
                "volatile-ttl",
                "allkeys-random",
                "volatile-random",
                "allkeys-lfu",
                "volatile-lfu"
            })
    void keysThatDoNotFitTheRoomLeftAreRefusedUnderEveryPolicyEvenForced(String policy) {
        memory(750_000_000, 1_000_000_000, policy);

        for (SafetyPolicy safety : java.util.List.of(SafetyPolicy.DEFAULT, SafetyPolicy.DEFAULT.forced())) {
            assertThatThrownBy(() -> SafetyGuard.check(target, safety, "fleetfix:bench:", ISSUE_RUN))
                    .isInstanceOf(BenchmarkRefusedException.class)
                    .hasMessageContaining("refusing to benchmark: the benchmark needs about 764.9 MiB (200,000 keys"
                            + " of 2,048-byte values, about 509.9 MiB with their connections, and a margin of 1.5x),"
                            + " and only 238.4 MiB are left below maxmemory (used_memory 715.3 MiB of 953.7 MiB); ")
                    .hasMessageContaining(
                            "; use a smaller keyspace (-r, keyspace:) or value size (-d, value_size:), or a host with"
                                    + " room")
                    .hasMessageNotContaining("--force");
        }
    }

    @Test
    void theRefusalSaysWhatEachPolicyDoesToTheUsers() {
        assertThat(SafetyGuard.atTheLimit("volatile-lru"))
                .isEqualTo("maxmemory-policy volatile-lru evicts the users' keys that carry a TTL to make room, least"
                        + " recently used first, and once none is left Redis refuses writes with OOM, the users' own"
                        + " writes too");
        assertThat(SafetyGuard.atTheLimit("volatile-ttl")).contains("those nearest to expiry first");
        assertThat(SafetyGuard.atTheLimit("noeviction"))
                .isEqualTo("at maxmemory, under maxmemory-policy noeviction, Redis refuses writes with OOM, the users'"
                        + " own writes too");
        assertThat(SafetyGuard.atTheLimit("allkeys-lfu"))
                .isEqualTo("maxmemory-policy allkeys-lfu evicts any of the users' keys to make room");
    }

    @Test
    void keysThatFitWithTheMarginRunUnderAVolatilePolicy() {
        long needed = (long) Math.ceil(ISSUE_RUN.bytes() * SafetyGuard.HEADROOM_MARGIN);
        memory(1_000_000_000, 1_000_000_000 + needed, "volatile-lru");

        assertThatCode(() -> SafetyGuard.check(target, SafetyPolicy.DEFAULT, "fleetfix:bench:", ISSUE_RUN))
                .doesNotThrowAnyException();

        memory(1_000_000_000, 1_000_000_000 + needed - 1, "volatile-lru");
        assertThatThrownBy(() -> SafetyGuard.check(target, SafetyPolicy.DEFAULT, "fleetfix:bench:", ISSUE_RUN))
                .hasMessageContaining("volatile-lru evicts the users' keys that carry a TTL");
    }

    @Test
    void withoutMaxmemoryTheFootprintIsNoReasonToRefuse() {
        memory(50_000_000_000L, 0, "volatile-lru");

        assertThatCode(() -> SafetyGuard.check(target, SafetyPolicy.DEFAULT, "fleetfix:bench:", ISSUE_RUN))
                .doesNotThrowAnyException();
    }

    @Test
    void builtinLpushForATimeIsRefusedBelowAnyLimit() {
        memory(1_000, 50_000_000_000L, "noeviction");
        Footprint lists =
                Footprint.of(LoadSpec.builder().mix(Map.of(Operation.LPUSH, 1)).build());

        assertThatThrownBy(() -> SafetyGuard.check(target, SafetyPolicy.DEFAULT.forced(), "fleetfix:bench:", lists))
                .hasMessageContaining("LPUSH from the builtin engine grows its lists for as long as the load runs")
                .hasMessageContaining("leave lpush out, or use --engine redis-benchmark, whose -n bounds it");
    }
}
