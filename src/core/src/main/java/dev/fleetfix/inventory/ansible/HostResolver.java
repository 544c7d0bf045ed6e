package dev.fleetfix.inventory.ansible;

import dev.fleetfix.InputException;
import dev.fleetfix.Secret;
import dev.fleetfix.Unevaluated;
import dev.fleetfix.inventory.BecomeMethod;
import dev.fleetfix.inventory.Connection;
import dev.fleetfix.inventory.Host;
import dev.fleetfix.inventory.HostBuilder;
import dev.fleetfix.inventory.PasswordVariables;
import dev.fleetfix.inventory.RedisAuth;
import dev.fleetfix.inventory.RedisEndpoint;
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
 * Turns one host's variable layers (groups in precedence order, then the host's own) into a validated {@link Host}:
 * its settings read from their slots ({@link HostSlots}), its variables merged, each as evaluated and, where templates
 * made it, as written.
 */
final class HostResolver {
    /** Hosts of these groups run a Redis Sentinel. */
    static final Set<String> SENTINEL_GROUPS = Set.of("sentinel", "sentinels");

    static final int DEFAULT_SENTINEL_PORT = 26379;

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
        Optional<HostSlots.Located> instances;
        try {
            instances = slots(name, layers).find(List.of(INSTANCES));
        } catch (HostSlots.Deferred e) {
            return List.of(
                    host.unusable().isPresent()
                            ? host
                            : host.toBuilder()
                                    .unusable(Optional.of(e.problem()))
                                    .build());
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
        HostSlots slots = slots(name, layers);
        layers.forEach(this::checkRedisKeys);
        Deferrals later = new Deferrals();
        String address = later.get(() -> slots.string(HostSlots.ADDRESS), Optional.<String>empty())
                .orElse(name);
        int port = later.get(() -> slots.port(HostSlots.PORT), Optional.<Integer>empty())
                .orElse(Host.DEFAULT_SSH_PORT);
        Connection connection =
                later.get(slots::connection, Optional.<Connection>empty()).orElse(Connection.SSH);
        RedisEndpoint redis = later.get(() -> redis(slots, address), RedisEndpoint.defaultsFor(address));
        Optional<RedisEndpoint> sentinel = groups.stream().anyMatch(SENTINEL_GROUPS::contains)
                ? Optional.of(later.get(() -> sentinel(slots, redis), sentinelDefaults(redis)))
                : Optional.empty();
        Map<String, Object> vars = new LinkedHashMap<>();
        Map<String, Object> written = new LinkedHashMap<>();
        layers.forEach(layer -> layer.forEach((key, value) -> merge(key, value, vars, written)));
        // the other Redis settings a run reads from the variables (a replication group, an instance's config)
        REDIS_KEYS.stream()
                .filter(key -> vars.get(key) instanceof Unevaluated)
                .forEach(key -> later.defer(((Unevaluated) vars.get(key)).problem()));
        // in the order they were always read: the first that cannot be evaluated is the one the host names
        return HostBuilder.builder()
                .name(name)
                .address(address)
                .port(port)
                .user(later.get(() -> slots.string(HostSlots.USER), Optional.empty()))
                .keyFile(later.get(() -> slots.path(HostSlots.KEY), Optional.empty()))
                .become(later.get(() -> slots.bool(HostSlots.BECOME), Optional.<Boolean>empty())
                        .orElse(false))
                .jump(later.get(() -> slots.jump(List.of("jump")), Optional.empty()))
                .knownHosts(later.get(() -> slots.path(List.of("known_hosts_file")), Optional.empty()))
                .connection(connection)
                .redis(redis)
                .groups(groups)
                .vars(vars)
                .sentinel(sentinel)
                .unusable(later.first())
                .sealedVars(Optional.empty())
                .becomeMethod(BecomeMethod.SUDO)
                .becomePassword(Optional.empty())
                .writtenVars(written)
                .build();
    }

    private HostSlots slots(String name, List<Map<String, YamlValue>> layers) {
        return new HostSlots(name, layers, file, this::fileOf);
    }

    /** The host's Redis: {@code redis_host} (default: the host's address), port, password, user, TLS, unit. */
    private static RedisEndpoint redis(HostSlots slots, String address) {
        return new RedisEndpoint(
                slots.string(List.of("redis_host")).orElse(address),
                slots.port(List.of("redis_port")).orElse(RedisEndpoint.DEFAULT_PORT),
                slots.auth(HostSlots.PASSWORD).withUser(slots.user("redis_user")),
                slots.bool(List.of("redis_tls")).orElse(false),
                slots.unit(List.of("redis_service")).orElse(RedisEndpoint.DEFAULT_UNIT));
    }

    /** The Sentinel of a host in a Sentinel group: its Redis address and TLS unless {@code sentinel_*} say else. */
    private static RedisEndpoint sentinel(HostSlots slots, RedisEndpoint redis) {
        return new RedisEndpoint(
                slots.string(List.of("sentinel_host")).orElse(redis.address()),
                slots.port(List.of("sentinel_port")).orElse(DEFAULT_SENTINEL_PORT),
                slots.auth(HostSlots.SENTINEL_PASSWORD).withUser(slots.user("sentinel_user")),
                slots.bool(List.of("sentinel_tls")).orElse(redis.tls()),
                slots.unit(List.of("sentinel_service")).orElse("redis-sentinel"));
    }

    private static RedisEndpoint sentinelDefaults(RedisEndpoint redis) {
        return new RedisEndpoint(redis.address(), DEFAULT_SENTINEL_PORT, RedisAuth.NONE, false, "redis-sentinel");
    }

    /** The first setting of a host that could not be evaluated; the others read on with their defaults. */
    private static final class Deferrals {
        private InputException first;

        <T> T get(Supplier<T> read, T fallback) {
            try {
                return read.get();
            } catch (HostSlots.Deferred e) {
                defer(e.problem());
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
     * One layer's variable over the layers before it: its value, and as written when templates made it (a password
     * is printed masked either way, and a value left unevaluated already keeps its text as written).
     */
    private void merge(String key, YamlValue value, Map<String, Object> vars, Map<String, Object> written) {
        vars.put(key, plainVar(key, value));
        YamlValue asWritten = renderedFrom.get(value);
        if (asWritten == null || PasswordVariables.isPassword(key) || value.value() instanceof Unevaluated) {
            written.remove(key);
        } else {
            written.put(key, plainVar(key, asWritten));
        }
    }

    private static Object plainVar(String key, YamlValue value) {
        if (value.value() instanceof Secret || value.value() instanceof Unevaluated) {
            return value.value();
        }
        if (PasswordVariables.isPassword(key) && value.value() != null) {
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
}
