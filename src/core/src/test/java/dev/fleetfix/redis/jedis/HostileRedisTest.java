package dev.fleetfix.redis.jedis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.fleetfix.fake.TestHosts;
import dev.fleetfix.inventory.Host;
import dev.fleetfix.inventory.RedisAuth;
import dev.fleetfix.inventory.RedisEndpoint;
import dev.fleetfix.redis.RedisException;
import dev.fleetfix.redis.RedisNode;
import dev.fleetfix.redis.jedis.HostileRedisServer.Shape;
import dev.fleetfix.redis.load.BenchmarkException;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Jedis's connections, to a server on the Redis port that is no Redis: each fails with a message
 * naming the endpoint, in bounded time, never with an {@link Error} of the JVM's.
 */
class HostileRedisTest {
    private static final Duration TIMEOUT = Duration.ofSeconds(1);

    @ParameterizedTest
    @EnumSource(Shape.class)
    @Timeout(value = 20, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void theConnectorFailsTheHostWithAClearLine(Shape shape) throws Exception {
        try (HostileRedisServer server = HostileRedisServer.start("127.0.0.1", shape)) {
            Host host = host(server.port());
            Throwable thrown;
            try (RedisNode node = new JedisConnector(name -> null).connect(host, TIMEOUT)) {
                thrown = catchThrowable(() -> node.info("server"));
            }
            assertThat(thrown).isInstanceOf(RedisException.class);
            assertThat(thrown.getMessage())
                    .startsWith("host hostile: redis: 127.0.0.1:" + server.port() + ": INFO sent, then ")
                    .contains(expected(shape));
        }
    }

    @ParameterizedTest
    @EnumSource(Shape.class)
    @Timeout(value = 20, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void theBenchmarkTargetFailsTheHostWithAClearLine(Shape shape) throws Exception {
        try (HostileRedisServer server = HostileRedisServer.start("127.0.0.1", shape)) {
            Host host = host(server.port());
            Throwable thrown = catchThrowable(
                    () -> JedisBenchTarget.connect(host.name(), host.redis(), Optional.empty(), TIMEOUT));
            assertThat(thrown).isInstanceOfAny(RedisException.class, BenchmarkException.class);
            assertThat(thrown.getMessage())
                    .contains("127.0.0.1:" + server.port())
                    .contains(expected(shape));
        }
    }

    private static String expected(Shape shape) {
        return switch (shape) {
            case HUGE_ARRAY -> "sent a reply of over 1048576 elements: not a Redis server, or a hostile one";
            case DEEP_NESTING -> "sent arrays nested over 32 deep: not a Redis server, or a hostile one";
            case HUGE_BULK -> "sent a reply over 64 MiB: not a Redis server, or a hostile one";
            case DRIP -> "sent a reply still arriving 1000 ms after it began";
            case TARPIT -> "no answer within 1000 ms";
        };
    }

    private static Host host(int port) {
        return TestHosts.named("hostile")
                .address("127.0.0.1")
                .become(false)
                .redis(new RedisEndpoint("127.0.0.1", port, RedisAuth.NONE, false, "redis-server"))
                .build();
    }
}
