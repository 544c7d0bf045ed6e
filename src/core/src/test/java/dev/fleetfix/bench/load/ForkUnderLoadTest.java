package dev.fleetfix.bench.load;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.fleetfix.Sleeper;
import dev.fleetfix.bench.FakeTarget;
import dev.fleetfix.bench.plan.ForkUnderLoadSpec;
import dev.fleetfix.bench.plan.SafetyPolicy;
import dev.fleetfix.redis.load.BenchmarkRefusedException;
import dev.fleetfix.redis.load.Operation;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class ForkUnderLoadTest {
    private final AtomicLong clock = new AtomicLong();
    private final FakeTarget target = new FakeTarget(clock, n -> 100_000);
    private final ForkUnderLoad profile = new ForkUnderLoad(
            new LoadGenerator(clock::get, d -> clock.addAndGet(d.toNanos())),
            clock::get,
            d -> clock.addAndGet(d.toNanos()));
    private final ForkUnderLoadSpec spec = ForkUnderLoadSpec.defaults()
            .withLoad(ForkUnderLoadSpec.defaults().load().toBuilder()
                    .connections(2)
                    .keyspace(1000)
                    .warmup(Duration.ZERO)
                    .requests(5000)
                    .build());

    private void persistence(String field, String value) {
        Map<String, String> p = new HashMap<>(target.info.get("persistence"));
        p.put(field, value);
        target.info.put("persistence", p);
    }

    @Test
    void runsTheLoadWithBgsavesAndLeavesNoKeysBehind() {
        target.keys.add("user:1");

        ProfileOutcome outcome = profile.run(target, spec, SafetyPolicy.DEFAULT);

        assertThat(outcome).isInstanceOfSatisfying(ProfileOutcome.Ran.class, ran -> {
            assertThat(ran.load().result().test()).isEqualTo("FORK-UNDER-LOAD");
            assertThat(ran.load().result().requests()).hasValue(5000);
            assertThat(ran.keysDeleted()).isPositive();
            assertThat(ran.forks()).allSatisfy(f -> assertThat(f.forkMicros()).isEqualTo(1234));
        });
        assertThat(target.keys).containsExactly("user:1");
        // the probe before and the clean snapshot after, at least
        assertThat(target.bgsaves.get()).isGreaterThanOrEqualTo(2);
        assertThat(target.ops).allSatisfy(op -> assertThat(op.command()).isEqualTo(Operation.SET));
    }

    @Test
    void probesOnlyWhenRedisHasNotSavedSinceItStarted() {
        // the saver's hour-long interval blocks until it is stopped: only probe and snapshot remain
        Sleeper hourBlocks = duration -> {
            long nanos = duration.toNanos();
            if (nanos >= Duration.ofHours(1).toNanos()) {
                new java.util.concurrent.CountDownLatch(1).await();
            }
            clock.addAndGet(nanos);
        };
        ForkUnderLoad quiet = new ForkUnderLoad(
                new LoadGenerator(clock::get, d -> clock.addAndGet(d.toNanos())), clock::get, hourBlocks);
        ForkUnderLoadSpec hourly = spec.withBgsaveInterval(Duration.ofHours(1));

        persistence("rdb_last_bgsave_time_sec", "-1");
        quiet.run(target, hourly, SafetyPolicy.DEFAULT);
        assertThat(target.bgsaves.get()).isEqualTo(2); // probe, clean snapshot

        target.bgsaves.set(0);
        persistence("rdb_last_bgsave_time_sec", "12");
        quiet.run(target, hourly, SafetyPolicy.DEFAULT);
        assertThat(target.bgsaves.get()).isEqualTo(1); // clean snapshot only
    }

    @Test
    void skipsWhileAnAofRewriteRuns() {
        persistence("aof_rewrite_in_progress", "1");

        assertThat(profile.run(target, spec, SafetyPolicy.DEFAULT))
                .isEqualTo(new ProfileOutcome.Skipped(
                        "an AOF rewrite is in progress or scheduled; a BGSAVE would fork a second child"));
        assertThat(target.bgsaves.get()).isZero();
        assertThat(target.calls.get()).isZero();
    }

    @Test
    void skipsWhenTheLastSaveFailedNamingTheDirectory() {
        persistence("rdb_last_bgsave_status", "err");

        ProfileOutcome outcome = profile.run(target, spec, SafetyPolicy.DEFAULT);

        assertThat(outcome).isInstanceOfSatisfying(ProfileOutcome.Skipped.class, s -> assertThat(s.reason())
                .contains("rdb_last_bgsave_status:err")
                .contains("/var/lib/redis"));
    }

    @Test
    void skipsWhenDirCannotBeRead() {
        target.config.remove("dir");

        assertThat(profile.run(target, spec, SafetyPolicy.DEFAULT))
                .isInstanceOfSatisfying(ProfileOutcome.Skipped.class, s -> assertThat(s.reason())
                        .contains("CONFIG GET dir"));
    }

    @Test
    void refusesLikeAnyBenchmarkOnAnEvictingPrimary() {
        target.info.put("memory", Map.of("used_memory", "10", "maxmemory", "1000", "maxmemory_policy", "allkeys-lru"));

        assertThatThrownBy(() -> profile.run(target, spec, SafetyPolicy.DEFAULT))
                .isInstanceOf(BenchmarkRefusedException.class);
    }
}
