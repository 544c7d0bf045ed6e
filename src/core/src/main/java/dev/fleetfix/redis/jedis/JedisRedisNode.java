package dev.fleetfix.redis.jedis;

import dev.fleetfix.redis.InfoParser;
import dev.fleetfix.redis.RedisNode;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
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
        return call("PING", jedis::ping);
    }

    @Override
    public Map<String, String> info(String section) {
        return InfoParser.parse(call("INFO", () -> jedis.info(section)));
    }

    @Override
    public Optional<String> configGet(String parameter) {
        Map<String, String> values = call("CONFIG GET", () -> jedis.configGet(parameter));
        return Optional.ofNullable(values.get(parameter));
    }

    @Override
    public Object command(String name, String... args) {
        ProtocolCommand command = () -> name.getBytes(StandardCharsets.UTF_8);
        Object reply = call(label(name, args), () -> jedis.sendCommand(command, SafeEncoder.encodeMany(args)));
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

    /** "CONFIG REWRITE", "BGSAVE": the command and, for the commands that have them, its subcommand. */
    static String label(String name, String... args) {
        String upper = name.toUpperCase(Locale.ROOT);
        boolean container = SUBCOMMANDS.contains(upper) && args.length > 0;
        return container ? upper + " " + args[0].toUpperCase(Locale.ROOT) : upper;
    }

    private static final Set<String> SUBCOMMANDS =
            Set.of("CONFIG", "CLUSTER", "SENTINEL", "ACL", "CLIENT", "DEBUG", "MEMORY", "SCRIPT", "COMMAND", "OBJECT");

    private <T> T call(String command, Supplier<T> request) {
        try {
            return request.get();
        } catch (JedisException e) {
            throw JedisErrors.map(host, endpoint, timeout, command, e);
        }
    }
}
