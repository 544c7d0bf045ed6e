package dev.fleetfix.inventory.ansible;

import dev.fleetfix.HomePaths;
import dev.fleetfix.InputException;
import dev.fleetfix.Secret;
import dev.fleetfix.Unevaluated;
import dev.fleetfix.inventory.Connection;
import dev.fleetfix.inventory.JumpSpec;
import dev.fleetfix.inventory.RedisAuth;
import dev.fleetfix.inventory.UnitName;
import dev.fleetfix.inventory.ansible.vault.VaultException;
import dev.fleetfix.yaml.YamlValue;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * The settings of one host over its variable layers, each read as the type it must be. Each setting is a slot with
 * several accepted names ({@code ansible_port} or fleetfix's {@code port}); the most specific layer that names the
 * slot wins, so a host's {@code user} beats a group's {@code ansible_user}. Within one layer the Ansible name wins. A
 * value that is wrong is refused with its file:line:column; one that cannot be evaluated now throws {@link Deferred}.
 */
final class HostSlots {
    static final List<String> ADDRESS = List.of("ansible_host", "ansible_ssh_host", "host");
    static final List<String> PORT = List.of("ansible_port", "ansible_ssh_port", "port");
    static final List<String> USER = List.of("ansible_user", "ansible_ssh_user", "user");
    static final List<String> KEY = List.of("ansible_ssh_private_key_file", "ansible_private_key_file", "key");
    static final List<String> BECOME = List.of("ansible_become", "become");
    static final List<String> CONNECTION = List.of("ansible_connection");
    static final List<String> PASSWORD = List.of("redis_password_env", "redis_password_file", "redis_password");
    static final List<String> SENTINEL_PASSWORD =
            List.of("sentinel_password_env", "sentinel_password_file", "sentinel_password");

    private static final Set<String> TRUE = Set.of("true", "yes", "on", "y", "t", "1");
    private static final Set<String> FALSE = Set.of("false", "no", "off", "n", "f", "0");

    /** A variable chosen for a slot: which of its names was used, and its node. */
    record Located(String name, YamlValue node) {}

    /** A setting whose value cannot be evaluated now: the host keeps its error for a run that uses it. */
    static final class Deferred extends RuntimeException {
        private final InputException problem;

        Deferred(InputException problem) {
            super(problem.getMessage(), null, false, false);
            this.problem = problem;
        }

        InputException problem() {
            return problem;
        }
    }

    private final String host;
    private final List<Map<String, YamlValue>> layers;
    private final Path file;
    private final Path baseDir;
    /** The file a value came from, for its errors. */
    private final Function<YamlValue, Path> fileOf;

    HostSlots(String host, List<Map<String, YamlValue>> layers, Path file, Function<YamlValue, Path> fileOf) {
        this.host = host;
        this.layers = layers;
        this.file = file;
        this.fileOf = fileOf;
        Path parent = file.toAbsolutePath().getParent();
        this.baseDir = parent == null ? Path.of("") : parent;
    }

    Optional<Located> find(List<String> names) {
        for (int i = layers.size() - 1; i >= 0; i--) {
            Map<String, YamlValue> layer = layers.get(i);
            for (String name : names) {
                YamlValue node = layer.get(name);
                if (node != null) {
                    checkSingleSource(names, layer, name);
                    if (node.value() instanceof Unevaluated unusable) {
                        throw new Deferred(unusable.problem());
                    }
                    return Optional.of(new Located(name, node));
                }
            }
        }
        return Optional.empty();
    }

    private void checkSingleSource(List<String> names, Map<String, YamlValue> layer, String chosen) {
        if (names != PASSWORD && names != SENTINEL_PASSWORD) {
            return;
        }
        for (String other : names) {
            if (!other.equals(chosen) && layer.containsKey(other)) {
                YamlValue node = layer.get(other);
                throw new InputException(
                        file,
                        node.line(),
                        node.column(),
                        "host " + host + ": set only one of " + String.join(", ", names) + " (found " + chosen + " and "
                                + other + ")");
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
        // a setting fleetfix needs in clear (a user, an address) may still be vaulted, as Ansible allows
        if (value instanceof Secret vaulted) {
            String text = revealed(vaulted);
            if (!text.isBlank()) {
                return text.strip();
            }
        }
        throw error(v, v.name() + " must be a non-empty string, was " + InventoryLoader.describe(v.node()));
    }

    /** A path: {@code ~} is the user's home; a relative path is relative to the inventory file's directory. */
    Optional<Path> path(List<String> names) {
        return string(names).map(this::path);
    }

    private Path path(String text) {
        return baseDir.resolve(HomePaths.expand(text)).normalize();
    }

    /** A systemd unit name: it is written into unit files and commands, so nothing else is let through. */
    Optional<String> unit(List<String> names) {
        return find(names).map(v -> {
            String text = text(v);
            UnitName.problem(text).ifPresent(problem -> {
                throw error(v, v.name() + ": " + problem);
            });
            return text;
        });
    }

    /** A jump host, parsed now so that a bad one stops the run before any host is touched. */
    Optional<String> jump(List<String> names) {
        return find(names).map(v -> {
            String text = text(v);
            try {
                JumpSpec.parse(text);
            } catch (IllegalArgumentException e) {
                throw error(v, v.name() + ": " + e.getMessage());
            }
            return text;
        });
    }

    /** A vaulted value's text; without its password, the setting is deferred to the run that uses it. */
    private String revealed(Secret vaulted) {
        try {
            return vaulted.revealAsSetting();
        } catch (VaultException e) {
            throw new Deferred(e);
        }
    }

    Optional<Integer> port(List<String> names) {
        return find(names).map(v -> InventoryPort.parse(clear(v.node()))
                .orElseThrow(() ->
                        error(v, v.name() + " must be a number 1..65535, was " + InventoryLoader.describe(v.node()))));
    }

    /** Ansible's boolean(): true/false, yes/no, on/off, 1/0. */
    Optional<Boolean> bool(List<String> names) {
        return find(names).map(v -> {
            Object value = clear(v.node()).value();
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

    /** A vaulted scalar as its plain text, at its place; any other node as it is. */
    private YamlValue clear(YamlValue node) {
        return node.value() instanceof Secret vaulted
                ? new YamlValue.Scalar(revealed(vaulted), node.line(), node.column())
                : node;
    }

    /** An ACL user name: one word. */
    Optional<String> user(String key) {
        Optional<Located> found = find(List.of(key));
        if (found.isEmpty()) {
            return Optional.empty();
        }
        String text = text(found.get());
        if (text.isBlank() || text.chars().anyMatch(c -> c <= ' ')) {
            throw error(found.get(), key + " must be one word (an ACL user name), was '" + text + "'");
        }
        return Optional.of(text);
    }

    /** A Redis password from one of {@code names}: an environment variable, a file, or the value itself. */
    RedisAuth auth(List<String> names) {
        Optional<Located> chosen = find(names);
        if (chosen.isEmpty()) {
            return RedisAuth.NONE;
        }
        Located source = chosen.get();
        if (source.name().equals(names.get(2))) {
            Object value = source.node().value();
            if (value == null || value instanceof Map || value instanceof List) {
                throw error(source, names.get(2) + " must be a string");
            }
            if (value instanceof Secret vaulted) {
                return new RedisAuth(Optional.empty(), Optional.empty(), Optional.of(vaulted));
            }
            return new RedisAuth(Optional.empty(), Optional.empty(), Optional.of(Secret.of(String.valueOf(value))));
        }
        String text = text(source);
        if (source.name().equals(names.get(0))) {
            return new RedisAuth(Optional.of(text), Optional.empty(), Optional.empty());
        }
        return new RedisAuth(Optional.empty(), Optional.of(path(text)), Optional.empty());
    }

    /**
     * The connection named: Ansible's ssh plugin under its names (paramiko is SSH too), local, or another plugin
     * fleetfix has no transport for, which is listed but never reached. A value that is no name at all is refused.
     */
    Optional<Connection> connection() {
        return find(CONNECTION).map(value -> {
            Object v = value.node().value();
            String text = v instanceof String s ? s.strip().toLowerCase(Locale.ROOT) : "";
            return switch (text) {
                case "local", "ansible.builtin.local" -> Connection.LOCAL;
                case "ssh",
                        "smart",
                        "paramiko",
                        "paramiko_ssh",
                        "ansible.builtin.ssh",
                        "ansible.builtin.paramiko_ssh" -> Connection.SSH;
                case "" -> throw new InputException(
                        file,
                        value.node().line(),
                        value.node().column(),
                        "host " + host + ": ansible_connection must name a connection plugin (ssh, local, ...), was "
                                + InventoryLoader.describe(value.node()));
                default -> Connection.UNSUPPORTED;
            };
        });
    }

    InputException error(Located v, String message) {
        return new InputException(
                fileOf.apply(v.node()), v.node().line(), v.node().column(), "host " + host + ": " + message);
    }
}
