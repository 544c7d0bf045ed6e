package dev.fleetfix.inventory.ansible;

import dev.fleetfix.InputException;
import dev.fleetfix.Secret;
import dev.fleetfix.Unevaluated;
import dev.fleetfix.inventory.BecomeMethod;
import dev.fleetfix.inventory.Connection;
import dev.fleetfix.inventory.Host;
import dev.fleetfix.inventory.JumpSpec;
import dev.fleetfix.inventory.RedisAuth;
import dev.fleetfix.inventory.RedisEndpoint;
import dev.fleetfix.inventory.UnitName;
import dev.fleetfix.inventory.ansible.vault.VaultException;
import dev.fleetfix.yaml.YamlValue;
import java.nio.file.Path;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Supplier;

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

    /** Every Redis and Sentinel key fleetfix reads: another key with these prefixes is a typo. */
    static final List<String> REDIS_KEYS = List.of(
            "redis_host",
            "redis_port",
            "redis_user",
            "redis_password_env",
            "redis_password_file",
            "redis_password",
            "redis_tls",
            "redis_service",
            // the replication group a shard keeps whole (rollout.ReplicationGroups)
            "redis_group",
            // a host's several instances (RedisInstances), and what each instance learns from them
            "redis_instances",
            "redis_instance_of",
            "redis_instance_services",
            "redis_config",
            "sentinel_host",
            "sentinel_port",
            "sentinel_user",
            "sentinel_password_env",
            "sentinel_password_file",
            "sentinel_password",
            "sentinel_tls",
            "sentinel_service");

    private final Path file;
    private final Path baseDir;
    private final Set<String> warnings = new LinkedHashSet<>();

    /** Which file each variable value came from (group_vars, several sources); others are in {@code file}. */
    private final Function<YamlValue, Path> origins;

    /** A value whose templates were resolved, and the value as written: its file is the written one's. */
    private final Map<YamlValue, YamlValue> renderedFrom = new IdentityHashMap<>();

    HostResolver(Path file) {
        this(file, node -> null);
    }

    HostResolver(Path file, Function<YamlValue, Path> origins) {
        this.file = file;
        this.origins = origins;
        Path parent = file.toAbsolutePath().getParent();
        this.baseDir = parent == null ? Path.of("") : parent;
    }

    private Path fileOf(YamlValue node) {
        return Optional.ofNullable(origins.apply(renderedFrom.getOrDefault(node, node)))
                .orElse(file);
    }

    /** Warnings about the layers resolved so far ("did you mean redis_user?"), each once. */
    List<String> warnings() {
        return List.copyOf(warnings);
    }

    /**
     * The host, or one host per Redis instance when it has {@code redis_instances}: each is named
     * {@code <host>@<port>}, shares the host's SSH address (so the planner keeps them in separate
     * batches) and has its own port, service and config.
     */
    List<Host> resolveAll(
            String name,
            YamlValue.Entry where,
            List<String> groups,
            Map<String, Object> magic,
            List<Map<String, YamlValue>> written) {
        Optional<InputException> sealed = written.stream()
                .filter(SealedVars.class::isInstance)
                .map(layer -> (InputException) ((SealedVars) layer).problem())
                .findFirst();
        List<Map<String, YamlValue>> layers =
                VarTemplates.render(name, groups, magic, written, this::fileOf, renderedFrom);
        Host host = BecomeVars.apply(resolve(name, where, groups, layers), layers, this::fileOf);
        if (sealed.isPresent()) {
            // the file may set any of the host's settings: a run needs it decrypted
            host = host.toBuilder().unusable(sealed).sealedVars(sealed).build();
        }
        Slots slots = new Slots(name, layers);
        Optional<Located> instances;
        try {
            instances = slots.find(List.of(INSTANCES));
        } catch (Deferred e) {
            return List.of(
                    host.unusable().isPresent()
                            ? host
                            : host.toBuilder().unusable(Optional.of(e.problem)).build());
        }
        if (instances.isEmpty()) {
            return List.of(host);
        }
        return RedisInstances.expand(file, host, instances.get().node());
    }

    static final String INSTANCES = "redis_instances";

    /**
     * The host from its layers. A connection or Redis setting whose value cannot be evaluated (an {@link
     * Unevaluated} template, an inline vaulted value without its password) is not refused here: the setting keeps
     * its default and the host records the error as {@link Host#unusable()}, for a run to refuse it; a listing never
     * needs it. A value that is evaluated but wrong (a port of 0, a boolean of "maybe") is refused now.
     */
    Host resolve(String name, YamlValue.Entry where, List<String> groups, List<Map<String, YamlValue>> layers) {
        Slots slots = new Slots(name, layers);
        layers.forEach(this::checkRedisKeys);
        Deferrals later = new Deferrals();
        String address =
                later.get(() -> slots.string(ADDRESS), Optional.<String>empty()).orElse(name);
        int port = later.get(() -> slots.port(PORT), Optional.<Integer>empty()).orElse(Host.DEFAULT_SSH_PORT);
        Connection connection = later.get(
                        () -> slots.find(CONNECTION).map(v -> connection(name, v)), Optional.<Connection>empty())
                .orElse(Connection.SSH);
        RedisEndpoint redis = later.get(
                () -> new RedisEndpoint(
                        slots.string(List.of("redis_host")).orElse(address),
                        slots.port(List.of("redis_port")).orElse(RedisEndpoint.DEFAULT_PORT),
                        auth(slots, PASSWORD).withUser(user(slots, "redis_user")),
                        slots.bool(List.of("redis_tls")).orElse(false),
                        slots.unit(List.of("redis_service")).orElse(RedisEndpoint.DEFAULT_UNIT)),
                RedisEndpoint.defaultsFor(address));
        Optional<RedisEndpoint> sentinel = Optional.empty();
        if (groups.stream().anyMatch(SENTINEL_GROUPS::contains)) {
            sentinel = Optional.of(later.get(
                    () -> new RedisEndpoint(
                            slots.string(List.of("sentinel_host")).orElse(redis.address()),
                            slots.port(List.of("sentinel_port")).orElse(DEFAULT_SENTINEL_PORT),
                            auth(slots, SENTINEL_PASSWORD).withUser(user(slots, "sentinel_user")),
                            slots.bool(List.of("sentinel_tls")).orElse(redis.tls()),
                            slots.unit(List.of("sentinel_service")).orElse("redis-sentinel")),
                    new RedisEndpoint(
                            redis.address(), DEFAULT_SENTINEL_PORT, RedisAuth.NONE, false, "redis-sentinel")));
        }
        Map<String, Object> vars = new LinkedHashMap<>();
        Map<String, Object> written = new LinkedHashMap<>();
        layers.forEach(layer -> layer.forEach((key, value) -> merge(key, value, vars, written)));
        // the other Redis settings a run reads from the variables (a replication group, an instance's config)
        for (String key : REDIS_KEYS) {
            if (vars.get(key) instanceof Unevaluated unusable) {
                later.defer(unusable.problem());
            }
        }
        Optional<String> user = later.get(() -> slots.string(USER), Optional.empty());
        Optional<Path> key = later.get(() -> slots.string(KEY).map(this::path), Optional.empty());
        boolean become =
                later.get(() -> slots.bool(BECOME), Optional.<Boolean>empty()).orElse(false);
        Optional<String> jump = later.get(() -> slots.jump(List.of("jump")), Optional.empty());
        Optional<Path> knownHosts =
                later.get(() -> slots.string(List.of("known_hosts_file")).map(this::path), Optional.empty());
        return new Host(
                name,
                address,
                port,
                user,
                key,
                become,
                jump,
                knownHosts,
                connection,
                redis,
                groups,
                vars,
                sentinel,
                later.first(),
                Optional.empty(),
                BecomeMethod.SUDO,
                Optional.empty(),
                written);
    }

    /** A setting whose value cannot be evaluated now: the host keeps its error for a run that uses it. */
    private static final class Deferred extends RuntimeException {
        private final InputException problem;

        Deferred(InputException problem) {
            super(problem.getMessage(), null, false, false);
            this.problem = problem;
        }
    }

    /** The first setting of a host that could not be evaluated; the others read on with their defaults. */
    private static final class Deferrals {
        private InputException first;

        <T> T get(Supplier<T> read, T fallback) {
            try {
                return read.get();
            } catch (Deferred e) {
                defer(e.problem);
                return fallback;
            }
        }

        void defer(InputException problem) {
            if (first == null) {
                first = problem;
            }
        }

        Optional<InputException> first() {
            return Optional.ofNullable(first);
        }
    }

    /**
     * Variables whose values are passwords: kept as {@link Secret} in {@link Host#vars()}, so that every output
     * that shows variables (inventory --list/--host, -v traces, reports, journals) shows "******". Ansible's own
     * connection and become passwords are among them: fleetfix does not use them, but an inventory shared with
     * Ansible holds them.
     */
    static final Set<String> SECRET_KEYS = Set.of(
            "redis_password",
            "sentinel_password",
            "ansible_password",
            "ansible_ssh_pass",
            "ansible_ssh_password",
            "ansible_become_password",
            "ansible_become_pass",
            "ansible_sudo_pass",
            "ansible_sudo_password");

    /** A password: one of {@link #SECRET_KEYS}, or named {@code vault_*} as Ansible's vaulted values are. */
    static boolean isSecret(String key) {
        return SECRET_KEYS.contains(key) || key.startsWith("vault_");
    }

    /**
     * One layer's variable over the layers before it: its value, and as written when templates made it (a password
     * is printed masked either way, and a value left unevaluated already keeps its text as written).
     */
    private void merge(String key, YamlValue value, Map<String, Object> vars, Map<String, Object> written) {
        vars.put(key, plainVar(key, value));
        YamlValue asWritten = renderedFrom.get(value);
        if (asWritten == null || isSecret(key) || value.value() instanceof Unevaluated) {
            written.remove(key);
        } else {
            written.put(key, plainVar(key, asWritten));
        }
    }

    private static Object plainVar(String key, YamlValue value) {
        if (value.value() instanceof Secret || value.value() instanceof Unevaluated) {
            return value.value();
        }
        if (isSecret(key) && value.value() != null) {
            return Secret.of(String.valueOf(value.plain()));
        }
        return value.plain();
    }

    /**
     * A key that looks like one of fleetfix's Redis keys but is none ({@code redis_usr}) would be
     * ignored silently, and fleetfix would log in as someone else: it is named, with the key meant.
     */
    private void checkRedisKeys(Map<String, YamlValue> layer) {
        layer.forEach((key, node) -> {
            String lower = key.toLowerCase(Locale.ROOT);
            if (!(lower.startsWith("redis") || lower.startsWith("sentinel")) || REDIS_KEYS.contains(key)) {
                return;
            }
            String hint = closest(lower).map(k -> ", did you mean " + k + "?").orElse("");
            warnings.add(new InputException(
                            file, node.line(), node.column(), "unknown Redis key " + key + " is ignored" + hint)
                    .getMessage());
        });
    }

    /** The known key nearest to {@code key} by edit distance, when it is near enough to be a typo. */
    static Optional<String> closest(String key) {
        String best = null;
        int bestDistance = Integer.MAX_VALUE;
        for (String known : REDIS_KEYS) {
            int d = distance(key, known);
            if (d < bestDistance) {
                best = known;
                bestDistance = d;
            }
        }
        return bestDistance <= 3 ? Optional.of(best) : Optional.empty();
    }

    private static int distance(String a, String b) {
        int[] previous = new int[b.length() + 1];
        int[] current = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            previous[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            current[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
                current[j] = Math.min(Math.min(current[j - 1] + 1, previous[j] + 1), previous[j - 1] + cost);
            }
            int[] swap = previous;
            previous = current;
            current = swap;
        }
        return previous[b.length()];
    }

    /** An ACL user name: one word. */
    private static Optional<String> user(Slots slots, String key) {
        Optional<Located> found = slots.find(List.of(key));
        if (found.isEmpty()) {
            return Optional.empty();
        }
        String text = slots.text(found.get());
        if (text.isBlank() || text.chars().anyMatch(c -> c <= ' ')) {
            throw slots.error(found.get(), key + " must be one word (an ACL user name), was '" + text + "'");
        }
        return Optional.of(text);
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
            if (value instanceof Secret vaulted) {
                return new RedisAuth(Optional.empty(), Optional.empty(), Optional.of(vaulted));
            }
            return new RedisAuth(Optional.empty(), Optional.empty(), Optional.of(Secret.of(String.valueOf(value))));
        }
        String text = slots.text(source);
        if (source.name().equals(names.get(0))) {
            return new RedisAuth(Optional.of(text), Optional.empty(), Optional.empty());
        }
        return new RedisAuth(Optional.empty(), Optional.of(path(text)), Optional.empty());
    }

    /**
     * The connection named: Ansible's ssh plugin under its names (paramiko is SSH too), local, or another plugin
     * fleetfix has no transport for, which is listed but never reached. A value that is no name at all is refused.
     */
    private Connection connection(String host, Located value) {
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
    private record Located(String name, YamlValue node) {}

    /** The slots of one host, over its layers. */
    private final class Slots {
        private final String host;
        private final List<Map<String, YamlValue>> layers;

        Slots(String host, List<Map<String, YamlValue>> layers) {
            this.host = host;
            this.layers = layers;
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
            // a setting fleetfix needs in clear (a user, an address) may still be vaulted, as Ansible allows
            if (value instanceof Secret vaulted && !revealed(vaulted).isBlank()) {
                return vaulted.reveal().strip();
            }
            throw error(v, v.name() + " must be a non-empty string, was " + InventoryLoader.describe(v.node()));
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
        String revealed(Secret vaulted) {
            try {
                return vaulted.reveal();
            } catch (VaultException e) {
                throw new Deferred(e);
            }
        }

        Optional<Integer> port(List<String> names) {
            return find(names).map(v -> InventoryPort.parse(clear(v.node()))
                    .orElseThrow(() -> error(
                            v, v.name() + " must be a number 1..65535, was " + InventoryLoader.describe(v.node()))));
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
        YamlValue clear(YamlValue node) {
            return node.value() instanceof Secret vaulted
                    ? new YamlValue.Scalar(revealed(vaulted), node.line(), node.column())
                    : node;
        }

        InputException error(Located v, String message) {
            return new InputException(
                    fileOf(v.node()), v.node().line(), v.node().column(), "host " + host + ": " + message);
        }
    }
}
