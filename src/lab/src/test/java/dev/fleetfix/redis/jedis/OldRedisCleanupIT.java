package dev.fleetfix.redis.jedis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fleetfix.lab.LabRedisBuild;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.Pipeline;

/**
 * Benchmark cleanup on Redis 2.8.19, whose SCAN can miss keys while the keyspace shrinks under it (fixed in
 * Redis 4.0.10 and 5.0: redis/redis#4906). Deleting most of a keyspace in SCAN order shrinks it mid-scan, so a
 * single SCAN pass left keys behind; cleanup must scan again until a pass finds none.
 */
class OldRedisCleanupIT {
    private static final String PREFIX = "fleetfix:bench:r0123abcd:";
    private static final int USER_KEYS = 50;
    private static LocalRedisServer server;

    @BeforeAll
    static void startRedis28() throws Exception {
        Path binary = Files.createTempDirectory("fleetfix-redis28-").resolve("redis-server-2.8.19");
        LabRedisBuild.REDIS_2_8_19.extract(binary);
        server = LocalRedisServer.startBinary(binary.toString());
    }

    @AfterAll
    static void stopRedis() {
        if (server != null) {
            server.close();
        }
    }

    @Test
    void everyKeyUnderThePrefixIsDeletedAndNoOtherOne() {
        try (Jedis jedis = server.client()) {
            assertThat(jedis.info("server")).contains("redis_version:2.8.19");
            for (int round = 1; round <= 6; round++) {
                jedis.flushAll();
                fill(jedis, round * 7919);
                try (JedisBenchTarget target = JedisBenchTarget.connect(
                        "redis-2.8", server.endpoint(), Optional.empty(), Duration.ofSeconds(10))) {
                    target.deleteByPrefix(PREFIX);
                }

                assertThat(jedis.keys(PREFIX + "*"))
                        .as("round %d: keys left under the prefix", round)
                        .isEmpty();
                assertThat(jedis.dbSize())
                        .as("round %d: the user's keys", round)
                        .isEqualTo(USER_KEYS);
            }
        }
    }

    /** 150,000 keys under the prefix, as a redis-benchmark run writes them, and the user's own keys. */
    private static void fill(Jedis jedis, int seed) {
        Pipeline pipeline = jedis.pipelined();
        for (int i = 0; i < USER_KEYS; i++) {
            pipeline.set("user:" + i, "keep me");
        }
        for (int i = 0; i < 150_000; i++) {
            pipeline.set(PREFIX + "str:" + (i * 31L + seed), "xxx");
        }
        pipeline.sync();
    }
}
