package dev.fleetfix.redis.jedis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.fleetfix.Secret;
import dev.fleetfix.fake.TestHosts;
import dev.fleetfix.inventory.Host;
import dev.fleetfix.inventory.RedisAuth;
import dev.fleetfix.inventory.RedisEndpoint;
import dev.fleetfix.redis.RedisException;
import dev.fleetfix.redis.RedisNode;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A Redis at its {@code maxclients} greets a new connection with {@code -ERR max number of clients reached}: it runs
 * and is at the right address, so it is named as what it is, not as a Redis that did not answer.
 */
@Timeout(value = 20, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class MaxClientsTest {
    private static final Duration TIMEOUT = Duration.ofSeconds(2);

    @Test
    void aFullRedisIsNamedFullWithoutAPassword() throws Exception {
        try (FullRedis redis = FullRedis.start()) {
            RedisException e;
            try (RedisNode node =
                    new JedisConnector(name -> null).connect(host(redis.port(), RedisAuth.NONE), TIMEOUT)) {
                e = catchThrowableOfType(() -> node.info("server"), RedisException.class);
            }
            assertThat(e.kind()).isEqualTo(RedisException.Kind.MAX_CLIENTS);
            assertThat(e.getMessage()).contains("refused the connection, its maxclients is reached");
        }
    }

    @Test
    void aFullRedisIsNamedFullWhenItAnswersTheAuth() throws Exception {
        try (FullRedis redis = FullRedis.start()) {
            RedisAuth auth = new RedisAuth(Optional.empty(), Optional.empty(), Optional.of(Secret.of("full-pw-31c7")));
            RedisException e = catchThrowableOfType(
                    () -> new JedisConnector(name -> null).connect(host(redis.port(), auth), TIMEOUT),
                    RedisException.class);
            assertThat(e.kind()).isEqualTo(RedisException.Kind.MAX_CLIENTS);
        }
    }

    private static Host host(int port, RedisAuth auth) {
        return TestHosts.named("full")
                .address("127.0.0.1")
                .become(false)
                .redis(new RedisEndpoint("127.0.0.1", port, auth, false, "redis-server"))
                .build();
    }

    /** Answers each connection as a Redis at its maxclients does, then waits for the client to leave. */
    private static final class FullRedis implements AutoCloseable {
        private final ServerSocket server;

        private FullRedis(ServerSocket server) {
            this.server = server;
        }

        static FullRedis start() throws IOException {
            FullRedis full = new FullRedis(new ServerSocket(0, 16, InetAddress.getByName("127.0.0.1")));
            Thread accept = new Thread(full::accept, "full-redis");
            accept.setDaemon(true);
            accept.start();
            return full;
        }

        int port() {
            return server.getLocalPort();
        }

        private void accept() {
            while (!server.isClosed()) {
                try (Socket client = server.accept()) {
                    OutputStream out = client.getOutputStream();
                    out.write("-ERR max number of clients reached\r\n".getBytes(StandardCharsets.US_ASCII));
                    out.flush();
                    InputStream in = client.getInputStream();
                    while (in.read() >= 0) {
                        // until the client closes
                    }
                } catch (IOException e) {
                    return;
                }
            }
        }

        @Override
        public void close() throws IOException {
            server.close();
        }
    }
}
