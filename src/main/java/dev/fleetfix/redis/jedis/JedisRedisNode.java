package dev.fleetfix.redis.jedis;

import dev.fleetfix.redis.InfoParser;
import dev.fleetfix.redis.RedisNode;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.commands.ProtocolCommand;
import redis.clients.jedis.exceptions.JedisException;
import redis.clients.jedis.util.SafeEncoder;

/** A {@link RedisNode} over one Jedis connection. Not thread-safe: one per host and thread. */
public final class JedisRedisNode implements RedisNode {
    private final String host;
    private final String endpoint;
    private final Duration timeout;
    private final Jedis jedis;

    JedisRedisNode(String host, String endpoint, Duration timeout, Jedis jedis) {
        this.host = host;
        this.endpoint = endpoint;
        this.timeout = timeout;
        this.jedis = jedis;
    }

    @Override
    public String hostName() {
        return host;
    }

    @Override
    public String ping() {
        return call(jedis::ping);
    }

    @Override
    public Map<String, String> info(String section) {
        return InfoParser.parse(call(() -> jedis.info(section)));
    }

    @Override
    public Optional<String> configGet(String parameter) {
        Map<String, String> values = call(() -> jedis.configGet(parameter));
        return Optional.ofNullable(values.get(parameter));
    }

    @Override
    public Object command(String name, String... args) {
        ProtocolCommand command = () -> name.getBytes(StandardCharsets.UTF_8);
        Object reply = call(() -> jedis.sendCommand(command, SafeEncoder.encodeMany(args)));
        return SafeEncoder.encodeObject(reply);
    }

    @Override
    public void close() {
        try {
            jedis.close();
        } catch (JedisException e) {
            // the connection is gone either way; closing must not hide the caller's own outcome
        }
    }

    private <T> T call(Supplier<T> request) {
        try {
            return request.get();
        } catch (JedisException e) {
            throw JedisErrors.map(host, endpoint, timeout, e);
        }
    }
}
