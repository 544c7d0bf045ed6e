package dev.fleetfix.checks;

import dev.fleetfix.inventory.Host;
import dev.fleetfix.redis.CommandRights;
import dev.fleetfix.redis.NeededCommands;
import dev.fleetfix.redis.RedisConnector;
import dev.fleetfix.redis.RedisException;
import dev.fleetfix.redis.RedisNode;
import dev.fleetfix.redis.RedisServer;
import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.Set;
import java.util.function.Consumer;

/**
 * Asks a host's Redis what the audit needs, over one connection: INFO server, INFO replication,
 * CONFIG GET. A Redis that refuses our credentials is told apart from one that is down; one that
 * refuses a command (renamed away, or not permitted to our ACL user) still answered, and the
 * commands it refused are listed, with those {@code ACL DRYRUN} (Redis 7.0+) says the user may not
 * run.
 */
final class RedisProbe {
    private RedisProbe() {}

    /** What Redis answered, and what it said of itself for the service discovery. */
    record Probed(RedisFacts facts, RedisSelf self) {}

    static RedisFacts probe(Host host, RedisConnector connector, Duration timeout) {
        return read(host, connector, timeout).facts();
    }

    static Probed read(Host host, RedisConnector connector, Duration timeout) {
        return read(host, connector, timeout, self -> {});
    }

    /**
     * As {@link #read(Host, RedisConnector, Duration)}, telling {@code onSelf} what Redis says of itself (INFO server:
     * its process, config file and executable) as soon as it is known, before the rest is asked (INFO replication,
     * CONFIG GET, the ACL checks), so that the host's script, which needs only that, can run meanwhile. {@code onSelf}
     * is told exactly once, an unreachable self when Redis cannot be read.
     */
    static Probed read(Host host, RedisConnector connector, Duration timeout, Consumer<RedisSelf> onSelf) {
        int port = host.redis().port();
        String endpoint = host.redis().toString();
        String user = host.redis().auth().userName();
        RedisSelf[] told = {null}; // the self the script was given: a later failure does not change it
        try (RedisNode node = connector.connect(host, timeout)) {
            Set<String> refused = new LinkedHashSet<>();
            Map<String, String> server = info(node, "server", refused);
            OptionalLong pid = longValue(Optional.ofNullable(server.get("process_id")));
            RedisSelf self = new RedisSelf(
                    port, field(server, "config_file"), pid, field(server, "executable"), Optional.empty());
            told[0] = self;
            onSelf.accept(self);
            Map<String, String> replication = info(node, "replication", refused);
            Optional<RedisServer> known = RedisServer.fromInfo(server);
            Optional<String> version =
                    known.map(k -> k.version().toString()).or(() -> Optional.ofNullable(server.get("redis_version")));
            Optional<Boolean> disableThp = config(node, "disable-thp", refused).map(v -> v.equalsIgnoreCase("yes"));
            OptionalInt backlog = integer(config(node, "tcp-backlog", refused));
            version.filter(RedisProbe::hasAclDryrun).ifPresent(v -> dryrun(node, user, refused));
            RedisFacts facts = new RedisFacts(
                    endpoint,
                    Optional.empty(),
                    version,
                    Optional.ofNullable(replication.get("role")).map(r -> r.equals("slave") ? "replica" : r),
                    disableThp,
                    backlog,
                    pid,
                    false,
                    List.copyOf(refused),
                    known,
                    false);
            return new Probed(facts, self);
        } catch (RedisException e) {
            RedisFacts facts;
            if (e.kind() == RedisException.Kind.AUTH) {
                facts = RedisFacts.authFailed(endpoint, reason(e, host, endpoint) + " (user " + user + ")");
            } else if (e.kind() == RedisException.Kind.MAX_CLIENTS) {
                facts = RedisFacts.serverFull(endpoint, reason(e, host, endpoint));
            } else {
                facts = RedisFacts.unreachable(endpoint, reason(e, host, endpoint));
            }
            if (told[0] == null) {
                told[0] = RedisSelf.unreachable(port, facts.error().orElseThrow());
                onSelf.accept(told[0]);
            }
            return new Probed(facts, told[0]);
        }
    }

    private static Optional<String> field(Map<String, String> server, String name) {
        return Optional.ofNullable(server.get(name)).map(String::strip).filter(f -> !f.isEmpty());
    }

    /** INFO of one section; a refused INFO (an ACL without it) is noted and read as empty. */
    private static Map<String, String> info(RedisNode node, String section, Set<String> refused) {
        try {
            return node.info(section);
        } catch (RedisException e) {
            if (!e.refused()) {
                throw e;
            }
            refused.add("info (" + why(e) + ")");
            return Map.of();
        }
    }

    /** CONFIG may be renamed away or refused by ACL: the fact is then unknown, and the refusal noted. */
    private static Optional<String> config(RedisNode node, String parameter, Set<String> refused) {
        try {
            return node.configGet(parameter);
        } catch (RedisException e) {
            if (e.refused()) {
                refused.add("config|get (" + why(e) + ")");
            }
            return Optional.empty();
        }
    }

    private static String why(RedisException e) {
        return e.kind() == RedisException.Kind.NO_PERMISSION ? "NOPERM" : "unknown command: renamed away?";
    }

    /**
     * Asks Redis which of the commands fleetfix sends its user may not run. ACL DRYRUN runs nothing;
     * when the user may not run ACL DRYRUN itself, the refusals seen above are all there is to say.
     */
    private static void dryrun(RedisNode node, String user, Set<String> refused) {
        for (NeededCommands.Needed needed : NeededCommands.ALL) {
            switch (CommandRights.dryrun(node, user, needed.example())) {
                case DRYRUN_REFUSED -> {
                    return;
                }
                case UNKNOWN_COMMAND -> refused.add(needed.label() + " (unknown command: renamed away?)");
                case NOT_PERMITTED -> {
                    boolean seen = refused.stream().anyMatch(r -> r.startsWith(needed.label() + " "));
                    if (!seen) {
                        refused.add(needed.label() + " (NOPERM)");
                    }
                }
                case ALLOWED, CANNOT_TELL -> {}
            }
        }
    }

    /** ACL DRYRUN came with Redis 7.0. */
    static boolean hasAclDryrun(String version) {
        return CommandRights.canAsk(version);
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
