package dev.fleetfix.redis.jedis;

import dev.fleetfix.inventory.Host;
import dev.fleetfix.inventory.RedisEndpoint;
import dev.fleetfix.redis.RedisConnector;
import dev.fleetfix.redis.RedisNode;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;
import redis.clients.jedis.ClientSetInfoConfig;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.exceptions.JedisException;

/**
 * Connects to a host's Redis with Jedis, as its {@link RedisEndpoint} says: address, port, TLS, the
 * ACL user ({@code redis_user}), and a password read at connect time from an env var, a file or the
 * inventory. The connect and socket
 * timeouts are both the given timeout; a reply over {@link ReplyLimits} fails as a hostile one. The connection is opened (and authenticated) here, so an
 * unreachable Redis fails at {@link #connect} with a message naming host and endpoint.
 */
public final class JedisConnector implements RedisConnector {
    private final Function<String, String> env;

    public JedisConnector() {
        this(System::getenv);
    }

    /** @param env looks up environment variables (tests pass a map) */
    public JedisConnector(Function<String, String> env) {
        this.env = Objects.requireNonNull(env, "env");
    }

    @Override
    public RedisNode connect(Host host, Duration timeout) {
        RedisEndpoint endpoint = host.redis();
        String where = endpoint.address() + ":" + endpoint.port();
        int millis = (int) Math.min(Integer.MAX_VALUE, Math.max(1, timeout.toMillis()));
        DefaultJedisClientConfig.Builder config = DefaultJedisClientConfig.builder()
                .connectionTimeoutMillis(millis)
                .socketTimeoutMillis(millis)
                .ssl(endpoint.tls())
                .sslParameters(RedisTls.verifyingName())
                // CLIENT SETINFO costs a round trip and fails on Redis < 7.2
                .clientSetInfoConfig(ClientSetInfoConfig.DISABLED);
        Optional<String> password = RedisPassword.resolve(host, env);
        password.ifPresent(config::password);
        // AUTH user password (Redis 6+); without a user Jedis sends AUTH password, as the default user
        endpoint.auth().user().ifPresent(config::user);
        Jedis jedis = null;
        try {
            DefaultJedisClientConfig built = config.build();
            HostAndPort address = new HostAndPort(endpoint.address(), endpoint.port());
            jedis = new Jedis(BoundedSocket.factory(address, built), built);
            jedis.connect();
            return new JedisRedisNode(host.name(), where, timeout, jedis);
        } catch (JedisException e) {
            if (jedis != null) {
                jedis.close();
            }
            throw JedisErrors.map(host.name(), where, timeout, e);
        }
    }
}
