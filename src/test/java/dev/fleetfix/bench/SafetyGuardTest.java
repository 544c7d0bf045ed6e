package dev.fleetfix.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

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

        assertThatCode(() -> SafetyGuard.check(target, SafetyPolicy.DEFAULT)).doesNotThrowAnyException();
    }

    @Test
    void allowsAPrimaryWithRoomThatNeverEvicts() {
        memory(700, 1000, "noeviction");

        assertThatCode(() -> SafetyGuard.check(target, SafetyPolicy.DEFAULT)).doesNotThrowAnyException();
    }

    @Test
    void refusesANearlyFullPrimaryUnlessForced() {
        memory(850, 1000, "noeviction");

        assertThatThrownBy(() -> SafetyGuard.check(target, SafetyPolicy.DEFAULT))
                .isInstanceOf(BenchmarkRefusedException.class)
                .hasMessage("host redis-1: refusing to benchmark: used_memory is 85 % of maxmemory (850 of 1000 bytes),"
                        + " above 80 % (use --force to run anyway)");
        assertThatCode(() -> SafetyGuard.check(target, SafetyPolicy.DEFAULT.forced()))
                .doesNotThrowAnyException();
    }

    @Test
    void refusesAPrimaryThatWouldEvictUserKeys() {
        memory(100, 1000, "allkeys-lru");

        assertThatThrownBy(() -> SafetyGuard.check(target, SafetyPolicy.DEFAULT))
                .hasMessageContaining("maxmemory-policy allkeys-lru would evict user keys");
    }

    @Test
    void namesEveryReason() {
        memory(990, 1000, "allkeys-lfu");

        assertThatThrownBy(() -> SafetyGuard.check(target, SafetyPolicy.DEFAULT))
                .isInstanceOfSatisfying(BenchmarkRefusedException.class, e -> assertThat(e.reasons())
                        .hasSize(2));
    }

    @Test
    void anOldRedisWithoutMaxmemoryInInfoIsAskedThroughConfig() {
        target.info.put("memory", Map.of("used_memory", "900"));
        target.config.put("maxmemory", "1000");
        target.config.put("maxmemory-policy", "noeviction");

        assertThatThrownBy(() -> SafetyGuard.check(target, SafetyPolicy.DEFAULT))
                .hasMessageContaining("used_memory is 90 % of maxmemory");
    }

    @Test
    void aMemoryLimitThatCannotBeReadRefusesUnlessForced() {
        target.info.put("memory", Map.of("used_memory", "900"));

        assertThatThrownBy(() -> SafetyGuard.check(target, SafetyPolicy.DEFAULT))
                .hasMessageContaining("maxmemory could not be read (not in INFO memory, CONFIG GET refused)");
        assertThatCode(() -> SafetyGuard.check(target, SafetyPolicy.DEFAULT.forced()))
                .doesNotThrowAnyException();
    }

    @Test
    void aRoleThatCannotBeReadIsNotTakenForAPrimary() {
        target.info.put("replication", Map.of());

        assertThatThrownBy(() -> SafetyGuard.check(target, SafetyPolicy.DEFAULT))
                .hasMessageContaining("its role could not be read");
    }

    @Test
    void refusesAReplicaEvenWhenForced() {
        target.info.put("replication", Map.of("role", "slave"));

        assertThatThrownBy(() -> SafetyGuard.check(target, SafetyPolicy.DEFAULT.forced()))
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

        assertThatThrownBy(() -> SafetyGuard.check(target, SafetyPolicy.DEFAULT, "user:"))
                .isInstanceOf(BenchmarkRefusedException.class)
                .hasMessage("host redis-1: refusing to benchmark: 2 keys already exist under the prefix 'user:'; they"
                        + " are not the benchmark's: choose a prefix of its own (--prefix, or prefix: in a playbook)"
                        + " (use --force to run anyway)");
        assertThatCode(() -> SafetyGuard.check(target, SafetyPolicy.DEFAULT, "fleetfix:bench:"))
                .doesNotThrowAnyException();
    }

    @Test
    void manyExistingKeysAreCountedAsAtLeast() {
        for (int i = 0; i < 5000; i++) {
            target.keys.add("user:" + i);
        }
        assertThatThrownBy(() -> SafetyGuard.check(target, SafetyPolicy.DEFAULT, "user:"))
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
}
