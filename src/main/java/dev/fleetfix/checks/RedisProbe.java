package dev.fleetfix.checks;

import dev.fleetfix.inventory.Host;
import dev.fleetfix.redis.RedisConnector;
import dev.fleetfix.redis.RedisException;
import dev.fleetfix.redis.RedisNode;
import dev.fleetfix.redis.RedisServer;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;

/** Asks a host's Redis what the audit needs, over one connection: INFO server, INFO replication, CONFIG GET. */
final class RedisProbe {
    private RedisProbe() {}

    static RedisFacts probe(Host host, RedisConnector connector, Duration timeout) {
        String endpoint = host.redis().toString();
        try (RedisNode node = connector.connect(host, timeout)) {
            Map<String, String> server = node.info("server");
            Map<String, String> replication = node.info("replication");
            Optional<RedisServer> known = RedisServer.fromInfo(server);
            return new RedisFacts(
                    endpoint,
                    Optional.empty(),
                    known.map(k -> k.version().toString()).or(() -> Optional.ofNullable(server.get("redis_version"))),
                    Optional.ofNullable(replication.get("role")).map(r -> r.equals("slave") ? "replica" : r),
                    config(node, "disable-thp").map(v -> v.equalsIgnoreCase("yes")),
                    integer(config(node, "tcp-backlog")),
                    longValue(Optional.ofNullable(server.get("process_id"))),
                    known);
        } catch (RedisException e) {
            return RedisFacts.unreachable(endpoint, reason(e, host, endpoint));
        }
    }

    /** CONFIG may be renamed away or refused by ACL: the fact is then unknown, not an error. */
    private static Optional<String> config(RedisNode node, String parameter) {
        try {
            return node.configGet(parameter);
        } catch (RedisException e) {
            return Optional.empty();
        }
    }

    /** "host lab-2: redis: 127.0.0.12:6379: connection refused" -> "connection refused". */
    static String reason(RedisException e, Host host, String endpoint) {
        String message = e.getMessage() == null ? "" : e.getMessage();
        String prefix = "host " + host.name() + ": redis: ";
        if (message.startsWith(prefix)) {
            message = message.substring(prefix.length());
        }
        String where = host.redis().address() + ":" + host.redis().port() + ": ";
        if (message.startsWith(endpoint + ": ")) {
            message = message.substring(endpoint.length() + 2);
        } else if (message.startsWith(where)) {
            message = message.substring(where.length());
        }
        return message.isBlank() ? e.getClass().getSimpleName() : message;
    }

    private static OptionalInt integer(Optional<String> text) {
        return text.filter(t -> t.strip().matches("\\d+"))
                .map(t -> OptionalInt.of(Integer.parseInt(t.strip())))
                .orElse(OptionalInt.empty());
    }

    private static OptionalLong longValue(Optional<String> text) {
        return text.filter(t -> t.strip().matches("\\d+"))
                .map(t -> OptionalLong.of(Long.parseLong(t.strip())))
                .orElse(OptionalLong.empty());
    }
}
