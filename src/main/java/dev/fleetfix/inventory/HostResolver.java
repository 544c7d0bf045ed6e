package dev.fleetfix.inventory;

import dev.fleetfix.InputException;
import dev.fleetfix.Secret;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Turns one host's variable layers (groups in precedence order, then the host's own) into a
 * validated {@link Host}. Each setting is a slot with several accepted names ({@code ansible_port}
 * or fleetfix's {@code port}); the most specific layer that names the slot wins, so a host's
 * {@code user} beats a group's {@code ansible_user}. Within one layer the Ansible name wins.
 */
final class HostResolver {
    private static final List<String> ADDRESS = List.of("ansible_host", "ansible_ssh_host", "host");
    private static final List<String> PORT = List.of("ansible_port", "ansible_ssh_port", "port");
    private static final List<String> USER = List.of("ansible_user", "ansible_ssh_user", "user");
    private static final List<String> KEY = List.of("ansible_ssh_private_key_file", "ansible_private_key_file", "key");
    private static final List<String> BECOME = List.of("ansible_become", "become");
    private static final List<String> CONNECTION = List.of("ansible_connection");
    private static final List<String> PASSWORD = List.of("redis_password_env", "redis_password_file", "redis_password");
    private static final List<String> SENTINEL_PASSWORD =
            List.of("sentinel_password_env", "sentinel_password_file", "sentinel_password");
    /** Hosts of these groups run a Redis Sentinel. */
    static final Set<String> SENTINEL_GROUPS = Set.of("sentinel", "sentinels");

    static final int DEFAULT_SENTINEL_PORT = 26379;
    private static final Set<String> TRUE = Set.of("true", "yes", "on", "y", "t", "1");
    private static final Set<String> FALSE = Set.of("false", "no", "off", "n", "f", "0");

    private final Path file;
    private final Path baseDir;

    HostResolver(Path file) {
        this.file = file;
        Path parent = file.toAbsolutePath().getParent();
        this.baseDir = parent == null ? Path.of("") : parent;
    }

    /**
     * The host, or one host per Redis instance when it has {@code redis_instances}: each is named
     * {@code <host>@<port>}, shares the host's SSH address (so the planner keeps them in separate
     * batches) and has its own port, service and config.
     */
    List<Host> resolveAll(String name, YamlNode.Field where, List<String> groups, List<Map<String, YamlNode>> layers) {
        Host host = resolve(name, where, groups, layers);
        Slots slots = new Slots(name, layers);
        Optional<Located> instances = slots.find(List.of(INSTANCES));
        if (instances.isEmpty()) {
            return List.of(host);
        }
        return RedisInstances.expand(file, host, instances.get().node());
    }

    static final String INSTANCES = "redis_instances";

    Host resolve(String name, YamlNode.Field where, List<String> groups, List<Map<String, YamlNode>> layers) {
        Slots slots = new Slots(name, layers);
        String address = slots.string(ADDRESS).orElse(name);
        int port = slots.port(PORT).orElse(Host.DEFAULT_SSH_PORT);
        Connection connection =
                slots.find(CONNECTION).map(v -> connection(name, v)).orElse(Connection.SSH);
        RedisEndpoint redis = new RedisEndpoint(
                slots.string(List.of("redis_host")).orElse(address),
                slots.port(List.of("redis_port")).orElse(RedisEndpoint.DEFAULT_PORT),
                auth(slots, PASSWORD),
                slots.bool(List.of("redis_tls")).orElse(false),
                slots.string(List.of("redis_service")).orElse(RedisEndpoint.DEFAULT_UNIT));
        Optional<RedisEndpoint> sentinel = Optional.empty();
        if (groups.stream().anyMatch(SENTINEL_GROUPS::contains)) {
            sentinel = Optional.of(new RedisEndpoint(
                    slots.string(List.of("sentinel_host")).orElse(redis.address()),
                    slots.port(List.of("sentinel_port")).orElse(DEFAULT_SENTINEL_PORT),
                    auth(slots, SENTINEL_PASSWORD),
                    slots.bool(List.of("sentinel_tls")).orElse(redis.tls()),
                    slots.string(List.of("sentinel_service")).orElse("redis-sentinel")));
        }
        Map<String, Object> vars = new LinkedHashMap<>();
        for (Map<String, YamlNode> layer : layers) {
            layer.forEach((key, value) -> vars.put(key, plainVar(key, value)));
        }
        return new Host(
                name,
                address,
                port,
                slots.string(USER),
                slots.string(KEY).map(this::path),
                slots.bool(BECOME).orElse(false),
                slots.string(List.of("jump")),
                slots.string(List.of("known_hosts_file")).map(this::path),
                connection,
                redis,
                groups,
                vars,
                sentinel);
    }

    private static Object plainVar(String key, YamlNode value) {
        if ((key.equals("redis_password") || key.equals("sentinel_password")) && value.value() != null) {
            return Secret.of(String.valueOf(value.plain()));
        }
        return value.plain();
    }

    private RedisAuth auth(Slots slots, List<String> names) {
        Optional<Located> chosen = slots.find(names);
        if (chosen.isEmpty()) {
            return RedisAuth.NONE;
        }
        Located source = chosen.get();
        if (source.name().equals(names.get(2))) {
            Object value = source.node().value();
            if (value == null || value instanceof Map || value instanceof List) {
                throw slots.error(source, names.get(2) + " must be a string");
            }
            return new RedisAuth(Optional.empty(), Optional.empty(), Optional.of(Secret.of(String.valueOf(value))));
        }
        String text = slots.text(source);
        if (source.name().equals(names.get(0))) {
            return new RedisAuth(Optional.of(text), Optional.empty(), Optional.empty());
        }
        return new RedisAuth(Optional.empty(), Optional.of(path(text)), Optional.empty());
    }

    private Connection connection(String host, Located value) {
        Object v = value.node().value();
        String text = v instanceof String s ? s.strip().toLowerCase(Locale.ROOT) : "";
        return switch (text) {
            case "local" -> Connection.LOCAL;
            case "ssh", "smart", "paramiko", "paramiko_ssh" -> Connection.SSH;
            default -> throw new InputException(
                    file,
                    value.node().line(),
                    value.node().column(),
                    "host " + host + ": ansible_connection must be local or ssh, was "
                            + InventoryLoader.describe(value.node()));
        };
    }

    /** {@code ~} is the user's home; a relative path is relative to the inventory file's directory. */
    private Path path(String text) {
        String expanded = text;
        if (text.equals("~") || text.startsWith("~/")) {
            expanded = System.getProperty("user.home") + text.substring(1);
        }
        return baseDir.resolve(expanded).normalize();
    }

    /** A variable chosen for a slot: which of its names was used, and its node. */
    private record Located(String name, YamlNode node) {}

    /** The slots of one host, over its layers. */
    private final class Slots {
        private final String host;
        private final List<Map<String, YamlNode>> layers;

        Slots(String host, List<Map<String, YamlNode>> layers) {
            this.host = host;
            this.layers = layers;
        }

        Optional<Located> find(List<String> names) {
            for (int i = layers.size() - 1; i >= 0; i--) {
                Map<String, YamlNode> layer = layers.get(i);
                for (String name : names) {
                    YamlNode node = layer.get(name);
                    if (node != null) {
                        checkSingleSource(names, layer, name);
                        return Optional.of(new Located(name, node));
                    }
                }
            }
            return Optional.empty();
        }

        private void checkSingleSource(List<String> names, Map<String, YamlNode> layer, String chosen) {
            if (names != PASSWORD && names != SENTINEL_PASSWORD) {
                return;
            }
            for (String other : names) {
                if (!other.equals(chosen) && layer.containsKey(other)) {
                    YamlNode node = layer.get(other);
                    throw new InputException(
                            file,
                            node.line(),
                            node.column(),
                            "host " + host + ": set only one of " + String.join(", ", names) + " (found " + chosen
                                    + " and " + other + ")");
                }
            }
        }

        Optional<String> string(List<String> names) {
            return find(names).map(this::text);
        }

        String text(Located v) {
            Object value = v.node().value();
            if (value instanceof String s && !s.isBlank()) {
                return s.strip();
            }
            if (value instanceof Number n) {
                return n.toString();
            }
            throw error(v, v.name() + " must be a non-empty string, was " + InventoryLoader.describe(v.node()));
        }

        Optional<Integer> port(List<String> names) {
            return find(names).map(v -> {
                Object value = v.node().value();
                String text = value instanceof String s ? s.strip() : String.valueOf(value);
                if (value instanceof Number || value instanceof String) {
                    try {
                        int port = Integer.parseInt(text);
                        if (port >= 1 && port <= 65535) {
                            return port;
                        }
                    } catch (NumberFormatException e) {
                        // reported below
                    }
                }
                throw error(v, v.name() + " must be a number 1..65535, was " + InventoryLoader.describe(v.node()));
            });
        }

        /** Ansible's boolean(): true/false, yes/no, on/off, 1/0. */
        Optional<Boolean> bool(List<String> names) {
            return find(names).map(v -> {
                Object value = v.node().value();
                if (value instanceof Boolean b) {
                    return b;
                }
                String text = String.valueOf(value).strip().toLowerCase(Locale.ROOT);
                if (value != null && TRUE.contains(text)) {
                    return true;
                }
                if (value != null && FALSE.contains(text)) {
                    return false;
                }
                throw error(v, v.name() + " must be true or false, was " + InventoryLoader.describe(v.node()));
            });
        }

        InputException error(Located v, String message) {
            return new InputException(file, v.node().line(), v.node().column(), "host " + host + ": " + message);
        }
    }
}
