package dev.fleetfix.checks;

import dev.fleetfix.inventory.Host;
import dev.fleetfix.redis.RedisConnector;
import dev.fleetfix.redis.RedisException;
import dev.fleetfix.redis.RedisNode;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/** A Redis of the RedisNode port, with the INFO and CONFIG answers a test gives it. */
final class FakeRedis implements RedisConnector {
    private final Map<String, String> server = new HashMap<>();
    private final Map<String, String> replication = new HashMap<>();
    private final Map<String, String> config = new HashMap<>();
    private String refusal;
    boolean configRefused;
    int connections;
    int closed;

    /** Redis 7.0.15, master, disable-thp yes, tcp-backlog 511, pid 4242. */
    static FakeRedis redis7() {
        FakeRedis redis = new FakeRedis();
        redis.server.put("redis_version", "7.0.15");
        redis.server.put("process_id", "4242");
        redis.replication.put("role", "master");
        redis.config.put("disable-thp", "yes");
        redis.config.put("tcp-backlog", "511");
        return redis;
    }

    /** Redis 5.0.14: no disable-thp. */
    static FakeRedis redis5() {
        FakeRedis redis = redis7();
        redis.server.put("redis_version", "5.0.14");
        redis.config.remove("disable-thp");
        return redis;
    }

    /** What a real server printed: INFO server and replication from a test resource, CONFIG as the test sets. */
    static FakeRedis fromInfo(Map<String, String> info) {
        FakeRedis redis = new FakeRedis();
        redis.server.putAll(info);
        redis.replication.put("role", info.getOrDefault("role", "master"));
        redis.config.put("tcp-backlog", "511");
        return redis;
    }

    /** Nothing listens: every connect fails the way the Jedis adapter reports it. */
    static FakeRedis refusing(String reason) {
        FakeRedis redis = new FakeRedis();
        redis.refusal = reason;
        return redis;
    }

    FakeRedis config(String parameter, String value) {
        config.put(parameter, value);
        return this;
    }

    FakeRedis role(String role) {
        replication.put("role", role);
        return this;
    }

    @Override
    public RedisNode connect(Host host, Duration timeout) {
        connections++;
        if (refusal != null) {
            throw new RedisException(host.name(), host.redis() + ": " + refusal, null);
        }
        return new Node(host.name());
    }

    private final class Node implements RedisNode {
        private final String host;

        Node(String host) {
            this.host = host;
        }

        @Override
        public String hostName() {
            return host;
        }

        @Override
        public String ping() {
            return "PONG";
        }

        @Override
        public Map<String, String> info(String section) {
            return switch (section) {
                case "server" -> Map.copyOf(server);
                case "replication" -> Map.copyOf(replication);
                default -> Map.of();
            };
        }

        @Override
        public Optional<String> configGet(String parameter) {
            if (configRefused) {
                throw new RedisException(host, "ERR unknown command 'CONFIG'", null);
            }
            return Optional.ofNullable(config.get(parameter));
        }

        @Override
        public Object command(String name, String... args) {
            throw new UnsupportedOperationException(name);
        }

        @Override
        public void close() {
            closed++;
        }
    }
}
