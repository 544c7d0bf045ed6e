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
    private RedisException.Kind refusalKind = RedisException.Kind.CONNECTION_REFUSED;
    boolean configRefused;
    /** Commands (as ACL labels, "config|get") ACL DRYRUN says the user may not run; ACL DRYRUN itself is allowed. */
    final java.util.Set<String> notPermitted = new java.util.HashSet<>();
    /** Users ACL DRYRUN was asked about. */
    final java.util.List<String> dryrunUsers = new java.util.ArrayList<>();

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

    /** Answers, but refuses the credentials, as Jedis reports it at connect time. */
    static FakeRedis refusingCredentials(String reason) {
        FakeRedis redis = new FakeRedis();
        redis.refusal = reason;
        redis.refusalKind = RedisException.Kind.AUTH;
        return redis;
    }

    /** CONFIG is not in the ACL user's rights: CONFIG GET gets NOPERM, and so says ACL DRYRUN. */
    FakeRedis withoutConfigRights() {
        notPermitted.addAll(java.util.List.of("config|get", "config|set", "config|rewrite"));
        return this;
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
            throw new RedisException(host.name(), refusalKind, Optional.empty(), host.redis() + ": " + refusal, null);
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
                throw new RedisException(
                        host,
                        RedisException.Kind.UNKNOWN_COMMAND,
                        Optional.of("CONFIG GET"),
                        "CONFIG GET refused, unknown command (renamed away or too old): ERR unknown command 'CONFIG'",
                        null);
            }
            if (notPermitted.contains("config|get")) {
                throw new RedisException(
                        host,
                        RedisException.Kind.NO_PERMISSION,
                        Optional.of("CONFIG GET"),
                        "CONFIG GET refused by ACL: NOPERM User ops has no permissions to run the 'config|get'"
                                + " command",
                        null);
            }
            return Optional.ofNullable(config.get(parameter));
        }

        @Override
        public Object command(String name, String... args) {
            if (name.equals("ACL") && args.length >= 3 && args[0].equals("DRYRUN")) {
                dryrunUsers.add(args[1]);
                String label = args[2].toLowerCase(java.util.Locale.ROOT)
                        + (args.length > 3 && (args[2].equals("CONFIG") || args[2].equals("CLUSTER"))
                                ? "|" + args[3].toLowerCase(java.util.Locale.ROOT)
                                : "");
                return notPermitted.contains(label)
                        ? "User " + args[1] + " has no permissions to run the '" + label + "' command"
                        : "OK";
            }
            throw new UnsupportedOperationException(name);
        }

        @Override
        public void close() {
            closed++;
        }
    }
}
