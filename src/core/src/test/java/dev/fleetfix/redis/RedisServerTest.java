package dev.fleetfix.redis;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Which server and which commands, read from the INFO texts real servers printed (2.8.19 to Valkey 8.1.1). */
public class RedisServerTest {

    public static Map<String, String> info(String name) {
        try (InputStream in = RedisServerTest.class.getResourceAsStream("/redis-info/" + name + ".txt")) {
            return InfoParser.parse(new String(in.readAllBytes(), StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static RedisServer server(String name) {
        return RedisServer.fromInfo(info(name)).orElseThrow();
    }

    @Test
    void redis28HasNeitherUnlinkNorClientPauseNorReplicaof() {
        RedisServer s = server("redis-2.8.19");
        assertThat(s.describe()).isEqualTo("Redis 2.8.19");
        assertThat(s.deleteCommand()).isEqualTo("DEL");
        assertThat(s.replicaOfCommand()).isEqualTo("SLAVEOF");
        assertThat(s.hasClientPause()).isFalse();
        assertThat(s.hasBgsaveSchedule()).isFalse();
        assertThat(s.hasFailover()).isFalse();
        assertThat(s.hasConfigRewrite()).isTrue();
        assertThat(s.hasHello()).isFalse();
        assertThat(s.hasDisableThp()).isFalse();
        assertThat(s.mode()).contains("standalone");
    }

    @Test
    void redis62HasFailoverAndBgsaveScheduleAndPausesWritesOnly() {
        RedisServer s = server("redis-6.2.11");
        assertThat(s.deleteCommand()).isEqualTo("UNLINK");
        assertThat(s.replicaOfCommand()).isEqualTo("REPLICAOF");
        assertThat(s.hasClientPauseWrite()).isTrue();
        assertThat(s.hasBgsaveSchedule()).isTrue();
        assertThat(s.hasFailover()).isTrue();
        assertThat(s.hasAcl()).isTrue();
        assertThat(s.hasDisableThp()).isTrue();
    }

    @Test
    void redis8IsPlainRedis() {
        RedisServer s = server("redis-8.0.2");
        assertThat(s.flavour()).isEqualTo(RedisServer.Flavour.REDIS);
        assertThat(s.describe()).isEqualTo("Redis 8.0.2");
        assertThat(s.hasFailover()).isTrue();
    }

    @Test
    void valkeyReportsItsOwnVersionAndHasTheCommandsOfTheRedisItForked() {
        RedisServer s = server("valkey-8.1.1");
        assertThat(s.flavour()).isEqualTo(RedisServer.Flavour.VALKEY);
        assertThat(s.describe()).isEqualTo("Valkey 8.1.1");
        assertThat(s.redisCompat()).isEqualTo(new RedisVersion(7, 2, 4));
        assertThat(s.mode()).contains("standalone"); // server_mode: Valkey has no redis_mode
        assertThat(s.hasFailover()).isTrue();
        assertThat(s.flavour().word()).isEqualTo("valkey");
    }

    @Test
    void withoutRedisVersionTheServerIsUnknown() {
        assertThat(RedisServer.fromInfo(Map.of("process_id", "1"))).isEmpty();
        assertThat(RedisServer.fromInfo(Map.of("redis_version", "garbage"))).isEmpty();
    }

    @Test
    void cuttingAtTheEdgesOfEachCommand() {
        assertThat(RedisServer.redis(new RedisVersion(3, 2, 12)).hasUnlink()).isFalse();
        assertThat(RedisServer.redis(new RedisVersion(4, 0, 0)).hasUnlink()).isTrue();
        assertThat(RedisServer.redis(new RedisVersion(4, 0, 14)).replicaOfCommand())
                .isEqualTo("SLAVEOF");
        assertThat(RedisServer.redis(new RedisVersion(5, 0, 0)).replicaOfCommand())
                .isEqualTo("REPLICAOF");
        assertThat(RedisServer.redis(new RedisVersion(3, 0, 0)).hasClientPause())
                .isTrue();
        assertThat(RedisServer.redis(new RedisVersion(6, 0, 16)).hasClientPauseWrite())
                .isFalse();
        assertThat(RedisServer.redis(new RedisVersion(6, 1, 0)).hasFailover()).isFalse();
        assertThat(RedisServer.redis(new RedisVersion(2, 6, 17)).hasConfigRewrite())
                .isFalse();
        assertThat(RedisServer.fromInfo(Map.of("redis_version", "6.2.0")).map(RedisServer::hasBgsaveSchedule))
                .isEqualTo(Optional.of(true));
    }
}
