package dev.fleetfix.inventory;

import java.nio.file.Path;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A loaded inventory: every host in file order, and each group's member host names (children
 * flattened, so {@code groups().get("all")} lists every host).
 *
 * @param source the file it came from, empty for the implicit localhost inventory
 * @param warnings what the loader found suspicious but not wrong, one line each, for the commands to print: what
 *     Ansible would warn about (a key written twice, a host listed twice) and keys fleetfix does not know ("unknown
 *     Redis key redis_usr is ignored, did you mean redis_user?")
 */
public record Inventory(
        Optional<Path> source, List<Host> hosts, Map<String, List<String>> groups, List<String> warnings) {
    public Inventory {
        hosts = List.copyOf(hosts);
        warnings = List.copyOf(warnings);
        // Group order is file order: a wildcard pattern matching several groups lists them in that order.
        Map<String, List<String>> copy = new LinkedHashMap<>();
        groups.forEach((name, members) -> copy.put(name, List.copyOf(members)));
        groups = Collections.unmodifiableMap(copy);
    }

    /** The group every host belongs to, as in Ansible: a pattern that names no group selects it. */
    public static final String ALL = "all";

    public Inventory(Optional<Path> source, List<Host> hosts, Map<String, List<String>> groups) {
        this(source, hosts, groups, List.of());
    }

    public static Inventory implicitLocalhost() {
        Host localhost = Host.implicitLocalhost();
        return new Inventory(Optional.empty(), List.of(localhost), Map.of(ALL, List.of(localhost.name())));
    }

    /** Hosts that run a Redis Sentinel (group {@code sentinel}), seen through it. */
    public List<Host> sentinels() {
        return hosts.stream().flatMap(h -> h.asSentinel().stream()).toList();
    }

    public Optional<Host> host(String name) {
        return hosts.stream().filter(h -> h.name().equals(name)).findFirst();
    }
}
