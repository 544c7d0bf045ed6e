package dev.fleetfix.inventory.ansible;

import dev.fleetfix.InputException;
import dev.fleetfix.Secret;
import dev.fleetfix.inventory.Host;
import dev.fleetfix.inventory.RedisEndpoint;
import dev.fleetfix.yaml.YamlValue;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * A host's {@code redis_instances}: several Redis servers on one machine, each its own inventory
 * host. An entry is {@code {port: 6380, service: redis-server@b, config: /etc/redis/redis-b.conf}};
 * {@code service} defaults to a template unit, {@code <template>@<name or port>}: the template is the
 * host's {@code redis_service} up to its {@code @} ({@code valkey-server} or {@code valkey-server@}
 * give Valkey's {@code valkey-server@6380}), else Debian's {@code redis-server}; {@code name} names
 * the instance for that default, {@code host} is the address Redis listens on (default: the host's
 * {@code redis_host}).
 */
final class RedisInstances {
    private static final Set<String> KEYS = Set.of("port", "service", "config", "name", "host");

    private RedisInstances() {}

    static List<Host> expand(Path file, Host host, YamlValue list) {
        if (!(list.value() instanceof List<?> items) || items.isEmpty()) {
            throw error(file, host, list, "redis_instances must be a non-empty list of {port: ..., service: ...}");
        }
        List<Map<String, Object>> entries = new ArrayList<>();
        Set<String> endpoints = new HashSet<>();
        for (Object item : items) {
            entries.add(entry(file, host, (YamlValue) item, endpoints));
        }
        String template = template(host.redis().serviceUnit());
        List<String> services =
                entries.stream().map(entry -> service(entry, template)).toList();
        List<Integer> ports =
                entries.stream().map(entry -> (Integer) entry.get("port")).toList();
        List<Host> hosts = new ArrayList<>();
        for (Map<String, Object> entry : entries) {
            int port = (Integer) entry.get("port");
            String service = service(entry, template);
            RedisEndpoint redis = new RedisEndpoint(
                    (String) entry.getOrDefault("host", host.redis().address()),
                    port,
                    host.redis().auth(),
                    host.redis().tls(),
                    service);
            Map<String, Object> vars = instanceVars(host, entry, service, services, ports);
            hosts.add(host.toBuilder()
                    .writtenVars(writtenAsBefore(host, vars))
                    .name(host.name() + "@" + port)
                    .redis(redis)
                    .vars(vars)
                    // the machine's one Sentinel, listed once
                    .sentinel(hosts.isEmpty() ? host.sentinel() : java.util.Optional.empty())
                    .build());
        }
        return hosts;
    }

    /** One instance as listed: its port, and its service, config, name and host when given; each endpoint once. */
    private static Map<String, Object> entry(Path file, Host host, YamlValue node, Set<String> endpoints) {
        if (!node.isMapping()) {
            throw error(file, host, node, "each of redis_instances must be a mapping like {port: 6380}");
        }
        Map<String, YamlValue.Entry> fields = node.fields();
        for (YamlValue.Entry f : fields.values()) {
            if (!KEYS.contains(f.key())) {
                throw new InputException(
                        file,
                        f.line(),
                        f.column(),
                        "host " + host.name() + ": redis_instances: unknown key '" + f.key() + "'; use "
                                + String.join(", ", KEYS.stream().sorted().toList()));
            }
        }
        YamlValue.Entry port = fields.get("port");
        if (port == null) {
            throw error(file, host, node, "each of redis_instances needs a port");
        }
        int number = port(file, host, port.value());
        Map<String, Object> entry = new LinkedHashMap<>();
        entry.put("port", number);
        for (String key : List.of("service", "config", "name", "host")) {
            YamlValue.Entry f = fields.get(key);
            if (f != null) {
                Object value = f.value().value() instanceof Secret secret
                        ? secret.revealAsSetting()
                        : f.value().value();
                if (!(value instanceof String text) || text.isBlank()) {
                    throw error(file, host, f.value(), "redis_instances: " + key + " must be a non-empty string");
                }
                entry.put(key, text.strip());
            }
        }
        String address = (String) entry.getOrDefault("host", host.redis().address());
        if (!endpoints.add(address + ":" + number)) {
            throw error(file, host, port.value(), "redis_instances: " + address + ":" + number + " is listed twice");
        }
        return entry;
    }

    private static String service(Map<String, Object> entry, String template) {
        Object service = entry.get("service");
        if (service != null) {
            return (String) service;
        }
        return template + entry.getOrDefault("name", entry.get("port"));
    }

    /**
     * The template unit, with its {@code @}, that the host's {@code redis_service} names ({@code redis-server}
     * when the host names none): {@code valkey-server}, {@code valkey-server@}, {@code valkey-server@.service} and
     * {@code valkey-server@main} all give {@code valkey-server@}.
     */
    static String template(String hostUnit) {
        String unit = hostUnit.endsWith(".service") ? hostUnit.substring(0, hostUnit.length() - 8) : hostUnit;
        int at = unit.indexOf('@');
        return (at >= 0 ? unit.substring(0, at) : unit) + "@";
    }

    private static int port(Path file, Host host, YamlValue node) {
        return InventoryPort.parse(node)
                .orElseThrow(() -> error(
                        file,
                        host,
                        node,
                        "redis_instances: port must be a number 1..65535, was " + InventoryLoader.describe(node)));
    }

    private static InputException error(Path file, Host host, YamlValue node, String message) {
        return new InputException(file, node.line(), node.column(), "host " + host.name() + ": " + message);
    }

    /** An instance's variables: the host's, with the instance's port, unit, config and the machine's instances. */
    private static Map<String, Object> instanceVars(
            Host host, Map<String, Object> entry, String service, List<String> services, List<Integer> ports) {
        int port = (Integer) entry.get("port");
        Map<String, Object> vars = new LinkedHashMap<>(host.vars());
        vars.put("redis_port", port);
        // a service, an instance name or the host's redis_service names the unit; else the steps discover it
        if (entry.containsKey("service")
                || entry.containsKey("name")
                || host.vars().containsKey("redis_service")) {
            vars.put("redis_service", service);
        } else {
            vars.remove("redis_service");
        }
        if (entry.containsKey("config")) {
            vars.put("redis_config", entry.get("config"));
        }
        vars.put("redis_instance_of", host.name());
        vars.put("redis_instance_services", services);
        vars.put("redis_instance_ports", ports);
        return vars;
    }

    /** The host's variables as written that the instance keeps as they were (the others it set itself). */
    private static Map<String, Object> writtenAsBefore(Host host, Map<String, Object> vars) {
        Map<String, Object> written = new LinkedHashMap<>(host.writtenVars());
        written.keySet()
                .removeIf(key -> !Objects.equals(vars.get(key), host.vars().get(key)));
        return written;
    }
}
