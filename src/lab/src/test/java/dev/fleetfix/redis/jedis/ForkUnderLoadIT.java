package dev.fleetfix.redis.jedis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fleetfix.bench.Metric;
import dev.fleetfix.bench.load.ForkUnderLoad;
import dev.fleetfix.bench.load.ProfileOutcome;
import dev.fleetfix.bench.plan.ForkUnderLoadSpec;
import dev.fleetfix.bench.plan.SafetyPolicy;
import dev.fleetfix.lab.RunsAlone;
import java.nio.file.Files;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.Jedis;

@RunsAlone
class ForkUnderLoadIT {

    private static ForkUnderLoadSpec shortRun() {
        ForkUnderLoadSpec defaults = ForkUnderLoadSpec.defaults();
        return defaults.withLoad(defaults.load().toBuilder()
                        .connections(8)
                        .keyspace(200_000)
                        .warmup(Duration.ofMillis(300))
                        .duration(Duration.ofSeconds(3))
                        .build())
                .withBgsaveInterval(Duration.ofMillis(500));
    }

    @Test
    void forksRepeatedlyUnderLoadAndLeavesASnapshotWithoutBenchmarkKeys() throws Exception {
        try (LocalRedisServer server = LocalRedisServer.start();
                Jedis jedis = server.client();
                JedisBenchTarget target = JedisBenchTarget.connect(
                        "local-redis", server.endpoint(), Optional.empty(), Duration.ofSeconds(10))) {
            jedis.set("user:1", "keep me");

            ProfileOutcome outcome = ForkUnderLoad.system().run(target, shortRun(), SafetyPolicy.DEFAULT);

            assertThat(outcome).isInstanceOfSatisfying(ProfileOutcome.Ran.class, ran -> {
                assertThat(ran.forks()).hasSizeGreaterThanOrEqualTo(2);
                assertThat(ran.forks())
                        .allSatisfy(f -> assertThat(f.forkMicros()).isPositive());
                assertThat(ran.load().result().test()).isEqualTo("FORK-UNDER-LOAD");
                assertThat(ran.load().errors()).isZero();
                assertThat(ran.keysDeleted()).isPositive();
                assertThat(Metric.MAX.valueOf(ran.load().result()).orElseThrow())
                        .isGreaterThanOrEqualTo(
                                Metric.P99.valueOf(ran.load().result()).orElseThrow());
            });
            assertThat(jedis.keys("*")).containsExactly("user:1");
            assertThat(jedis.info("persistence")).contains("rdb_last_bgsave_status:ok");
            assertThat(jedis.info("persistence")).contains("rdb_changes_since_last_save:0");
            assertThat(server.dir.resolve("dump.rdb")).exists();
        }
    }

    @Test
    void skipsWhenTheProbeSaveCannotWriteItsFile() throws Exception {
        // dbfilename is a protected config in Redis 7: it can only be set at start
        try (LocalRedisServer server = LocalRedisServer.start("--dbfilename", "blocked.rdb");
                Jedis jedis = server.client();
                JedisBenchTarget target = JedisBenchTarget.connect(
                        "local-redis", server.endpoint(), Optional.empty(), Duration.ofSeconds(10))) {
            // the dump file's name is taken by a directory: the rename at the end of every save fails
            Files.createDirectories(server.dir.resolve("blocked.rdb").resolve("inside"));

            ProfileOutcome outcome = ForkUnderLoad.system().run(target, shortRun(), SafetyPolicy.DEFAULT);

            assertThat(outcome).isInstanceOfSatisfying(ProfileOutcome.Skipped.class, s -> assertThat(s.reason())
                    .startsWith("a probe BGSAVE into ")
                    .contains("rdb_last_bgsave_status:err"));
            assertThat(jedis.dbSize()).isZero();
        }
    }
}
