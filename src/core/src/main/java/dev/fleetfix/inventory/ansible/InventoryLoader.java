package dev.fleetfix.inventory.ansible;

import dev.fleetfix.InputException;
import dev.fleetfix.inventory.AnsibleInventory;
import dev.fleetfix.inventory.Host;
import dev.fleetfix.inventory.HostPattern;
import dev.fleetfix.inventory.Inventory;
import dev.fleetfix.inventory.ansible.vault.VaultKeyring;
import dev.fleetfix.yaml.YamlValue;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads an Ansible YAML inventory ({@code all:} / {@code children:} / {@code hosts:} / {@code vars:})
 * the way Ansible's {@code yaml} inventory plugin does, then resolves each host's variables by
 * Ansible's precedence: groups sorted by depth, then {@code ansible_group_priority}, then name (later
 * wins), and host variables last.
 *
 * <p>Where Ansible only warns (an unknown key under a group, a section that is not a mapping), this
 * loader refuses the file: a typo in an inventory must not silently drop hosts from a remediation.
 */
public final class InventoryLoader {
    static final String ALL = Inventory.ALL;
    static final String UNGROUPED = "ungrouped";
    private static final Set<String> SECTIONS = Set.of("hosts", "vars", "children");
    /**
     * An inventory may name this many hosts, all its sources together, and so may one range: a typo like
     * [0:99999999] must not fill the memory. {@link HostCount} checks the total before any range is expanded.
     */
    static final int MAX_HOSTS = 1_000_000;

    private static final Pattern HOST_PORT = Pattern.compile("^([^:\\[\\]]+(?:\\[[^\\]]*\\][^:\\[\\]]*)*):([0-9]+)$");
    /** Ansible's bracketed_hostport, for an IPv6 address with a port: {@code [2001:db8::1]:2222}. */
    private static final Pattern BRACKETED_HOST_PORT = Pattern.compile("^\\[([^\\]]+)\\]:([0-9]+)$");

    static final Pattern HOST_RANGE = Pattern.compile("\\[([0-9a-zA-Z]+):([0-9a-zA-Z]+)(?::([0-9]+))?\\]");

    /** The source being read; with several sources (a directory inventory) it changes per source. */
    private Path file;

    /** Whether the source being read expands host ranges (all do but a host list). */
    private boolean ranges = true;

    private final Map<String, GroupDef> groups = new LinkedHashMap<>();
    private final Map<String, HostDef> hosts = new LinkedHashMap<>();
    private final List<String> warnings = new ArrayList<>();
    /** The file each variable value came from, for errors found after every source is read. */
    private final Map<YamlValue, Path> origins = new IdentityHashMap<>();

    private InventoryLoader(Path file) {
        this.file = file;
        group(ALL);
        group(UNGROUPED);
        group(ALL).children.add(group(UNGROUPED));
        group(UNGROUPED).parents.add(group(ALL));
    }

    /** Loads {@code file}; every problem is an {@link InputException} naming file:line:column. */
    public static Inventory load(Path file) {
        InventoryLoader loader = new InventoryLoader(file);
        YamlValue root = InventoryYaml.read(file, loader.warnings::add, VaultKeyring.none())
                .orElseThrow(() -> new InputException(file, 0, 0, "inventory is empty: define at least one host"));
        new HostCount().add(file, root);
        loader.parseTop(root);
        return loader.build(VarsLayers.NONE).inventory();
    }

    /**
     * Reads several sources into one inventory, in order (Ansible's InventoryData fed by each
     * source's plugin), then adds {@code vars}' layers by Ansible's variable precedence.
     */
    static AnsibleInventory load(List<InventorySource> sources, VarsLayers vars) {
        InventoryLoader loader = new InventoryLoader(sources.get(0).file());
        HostCount count = new HostCount();
        // a host list names each host it holds, no more: its brackets are no ranges
        sources.stream().filter(InventorySource::ranges).forEach(source -> source.documents()
                .forEach(document -> count.add(source.file(), document)));
        for (InventorySource source : sources) {
            loader.file = source.file();
            loader.ranges = source.ranges();
            loader.warnings.addAll(source.warnings());
            source.documents().forEach(loader::parseTop);
        }
        loader.file = sources.get(0).file();
        return loader.build(vars);
    }

    private void parseTop(YamlValue root) {
        if (!root.isMapping()) {
            throw error(root, "the inventory must be a mapping of groups (all: ...), was " + describe(root));
        }
        // Like Ansible, every top-level key is a group; "all" is only the usual one.
        for (YamlValue.Entry field : root.fields().values()) {
            parseGroup(field);
        }
    }

    private GroupDef parseGroup(YamlValue.Entry field) {
        GroupDef group = group(field.key());
        YamlValue body = field.value();
        if (body.isNull()) {
            return group;
        }
        if (!body.isMapping()) {
            throw error(
                    body,
                    "group " + field.key() + ": expected a mapping with hosts, vars or children, was "
                            + describe(body));
        }
        for (YamlValue.Entry section : body.fields().values()) {
            if (!SECTIONS.contains(section.key())) {
                throw new InputException(
                        file,
                        section.line(),
                        section.column(),
                        "group " + group.name + ": unknown key \"" + section.key()
                                + "\" (a group holds only hosts, vars and children; is it a host missing under hosts:?)");
            }
        }
        // Sections are read in file order, as Ansible does: that order decides host order in the group.
        for (YamlValue.Entry section : body.fields().values()) {
            YamlValue value = section.value();
            if (value.isNull()) {
                continue;
            }
            Map<String, YamlValue.Entry> entries = entries(group, section);
            switch (section.key()) {
                case "vars" -> entries.values().forEach(v -> group.setVariable(v, this));
                case "children" -> entries.values().forEach(child -> addChild(group, parseGroup(child), child));
                default -> entries.values().forEach(h -> parseHostKey(group, h));
            }
        }
        return group;
    }

    /** A section's entries; a bare string ({@code hosts: redis-1}) is one entry with no body, as in Ansible. */
    private Map<String, YamlValue.Entry> entries(GroupDef group, YamlValue.Entry section) {
        YamlValue value = section.value();
        if (value.value() instanceof String name) {
            return Map.of(
                    name, new YamlValue.Entry(name, value.line(), value.column(), new YamlValue.Scalar(null, 0, 0)));
        }
        if (!value.isMapping()) {
            throw error(
                    value, "group " + group.name + ": " + section.key() + " must be a mapping, was " + describe(value));
        }
        return value.fields();
    }

    /**
     * A host key as Ansible's parse_address reads it: {@code name}, {@code name:port}, and ranges
     * ({@code redis-[01:03]}, {@code node-[a:c]}, {@code [0:10:2]}) that stand for several hosts.
     */
    private void parseHostKey(GroupDef group, YamlValue.Entry entry) {
        if (!entry.textKey()) {
            // PyYAML types the key 1234 as a number, and Ansible refuses it rather than guess the name meant
            throw new InputException(
                    file,
                    entry.line(),
                    entry.column(),
                    "Host pattern " + entry.key() + " must be a string. Enclose integers/floats in quotation marks"
                            + " (\"" + entry.key() + "\":)");
        }
        String key = entry.key();
        YamlValue.Entry body = entry;
        Matcher port = HOST_PORT.matcher(key);
        Matcher bracketed = BRACKETED_HOST_PORT.matcher(key);
        if (bracketed.matches() && HostPattern.isIpv6(bracketed.group(1))) {
            port = bracketed;
        }
        if (port.matches()) {
            key = port.group(1);
            Map<String, YamlValue.Entry> vars = new LinkedHashMap<>();
            vars.put(
                    "ansible_port",
                    new YamlValue.Entry(
                            "ansible_port",
                            entry.line(),
                            entry.column(),
                            new YamlValue.Scalar(port(port.group(2), entry), entry.line(), entry.column())));
            if (entry.value().isMapping()) {
                vars.putAll(entry.value().fields());
            }
            YamlValue value = entry.value().isNull() || entry.value().isMapping()
                    ? new YamlValue.Mapping(
                            vars, entry.value().line(), entry.value().column())
                    : entry.value();
            body = new YamlValue.Entry(key, entry.line(), entry.column(), value);
        }
        for (String name : ranges ? expandRanges(key, entry) : List.of(key)) {
            parseHost(group, new YamlValue.Entry(name, body.line(), body.column(), body.value()));
        }
    }

    private List<String> expandRanges(String key, YamlValue.Entry where) {
        Matcher range = HOST_RANGE.matcher(key);
        if (!range.find()) {
            return List.of(key);
        }
        String head = key.substring(0, range.start());
        String tail = key.substring(range.end());
        String start = range.group(1);
        String end = range.group(2);
        int step = range.group(3) == null ? 1 : bound(range.group(3), where);
        List<String> names = new ArrayList<>();
        boolean numeric =
                start.chars().allMatch(Character::isDigit) && end.chars().allMatch(Character::isDigit);
        boolean alpha = start.length() == 1
                && end.length() == 1
                && Character.isLetter(start.charAt(0))
                && Character.isLetter(end.charAt(0));
        if (step < 1 || !(numeric || alpha)) {
            throw new InputException(
                    file,
                    where.line(),
                    where.column(),
                    "host range in \"" + where.key()
                            + "\" must be [start:end] or [start:end:step] of numbers or single letters");
        }
        int from = numeric ? bound(start, where) : start.charAt(0);
        int to = numeric ? bound(end, where) : end.charAt(0);
        if (from > to) {
            throw new InputException(
                    file, where.line(), where.column(), "host range in \"" + where.key() + "\" runs backwards");
        }
        long count = ((long) to - from) / step + 1;
        if (count > MAX_HOSTS) {
            throw new InputException(
                    file,
                    where.line(),
                    where.column(),
                    "host range in \"" + where.key() + "\" stands for " + count + " hosts, more than the " + MAX_HOSTS
                            + " one range may name");
        }
        for (int i = from; i <= to; i += step) {
            String item = numeric ? String.format("%0" + start.length() + "d", i) : String.valueOf((char) i);
            names.addAll(expandRanges(head + item + tail, where));
        }
        return names;
    }

    /** A range bound or step: digits that fit an int, else an error naming the host key. */
    private int bound(String digits, YamlValue.Entry where) {
        try {
            return Integer.parseInt(digits);
        } catch (NumberFormatException e) {
            throw new InputException(
                    file,
                    where.line(),
                    where.column(),
                    "host range in \"" + where.key() + "\": " + digits + " is out of range");
        }
    }

    private Integer port(String digits, YamlValue.Entry where) {
        if (digits.length() <= 5 && Integer.parseInt(digits) >= 1 && Integer.parseInt(digits) <= 65535) {
            return Integer.valueOf(digits);
        }
        throw new InputException(
                file,
                where.line(),
                where.column(),
                "host \"" + where.key() + "\": port " + digits + " is not in 1..65535");
    }

    private void parseHost(GroupDef group, YamlValue.Entry entry) {
        HostDef host = hosts.computeIfAbsent(entry.key(), name -> new HostDef(name, entry, file));
        if (group.hosts.add(host.name)) {
            host.directGroups.add(group);
        }
        YamlValue body = entry.value();
        if (body.isNull()) {
            return;
        }
        if (!body.isMapping()) {
            throw error(body, "host " + host.name + ": expected a mapping of variables, was " + describe(body));
        }
        // A host defined twice keeps its first place; later variables win key by key, as in Ansible.
        body.fields().values().forEach(v -> setTrackedVariable(host.vars, v));
    }

    private void addChild(GroupDef parent, GroupDef child, YamlValue.Entry where) {
        if (parent == child || ancestors(parent).contains(child)) {
            throw new InputException(
                    file,
                    where.line(),
                    where.column(),
                    "group " + child.name + " as a child of " + parent.name + " creates a loop");
        }
        if (!parent.children.contains(child)) {
            parent.children.add(child);
            child.parents.add(parent);
        }
    }

    private void setTrackedVariable(Map<String, YamlValue> vars, YamlValue.Entry field) {
        origins.put(field.value(), file);
        setVariable(vars, field);
    }

    static void setVariable(Map<String, YamlValue> vars, YamlValue.Entry field) {
        YamlValue old = vars.get(field.key());
        YamlValue value = field.value();
        if (old != null && old.isMapping() && value.isMapping()) {
            // Ansible's combine_vars: a mapping set twice merges its top-level keys.
            Map<String, YamlValue.Entry> merged = new LinkedHashMap<>(old.fields());
            merged.putAll(value.fields());
            value = new YamlValue.Mapping(merged, value.line(), value.column());
        }
        vars.put(field.key(), value);
    }

    private AnsibleInventory build(VarsLayers extra) {
        GroupDef all = group(ALL);
        GroupDef ungrouped = group(UNGROUPED);
        for (GroupDef group : List.copyOf(groups.values())) {
            if (group != all && group.parents.isEmpty()) {
                all.children.add(group);
                group.parents.add(all);
            }
        }
        for (HostDef host : hosts.values()) {
            Set<GroupDef> mine = new LinkedHashSet<>(host.directGroups);
            mine.remove(all);
            if (mine.isEmpty()) {
                ungrouped.hosts.add(host.name);
                host.directGroups.add(ungrouped);
            } else if (mine.size() > 1 && mine.remove(ungrouped)) {
                ungrouped.hosts.remove(host.name);
                host.directGroups.remove(ungrouped);
            }
        }
        Map<GroupDef, Integer> depth = depths();
        Map<String, List<String>> members = new LinkedHashMap<>();
        groups.values().forEach(g -> members.put(g.name, flattenHosts(g)));
        HostResolver resolver = new HostResolver(
                file, node -> origins.getOrDefault(node, extra.origins().get(node)));
        List<Host> resolved = new ArrayList<>();
        Map<String, List<String>> instanceNames = new LinkedHashMap<>();
        for (String name : members.get(ALL)) {
            HostDef host = hosts.get(name);
            List<GroupDef> sorted = sortedGroups(host, depth);
            List<Map<String, YamlValue>> layers = new ArrayList<>();
            sorted.forEach(g -> layers.add(g.vars));
            // Ansible's order: inventory group vars, group_vars/all, group_vars/GROUP (sorted), host vars,
            // host_vars/HOST.
            layers.addAll(extra.groups(sorted.stream().map(g -> g.name).toList()));
            layers.add(host.vars);
            layers.addAll(extra.host(name));
            List<Host> instances = resolver.resolveAll(
                    name, host.where, sorted.stream().map(g -> g.name).toList(), magic(host, members), layers);
            resolved.addAll(instances);
            instanceNames.put(name, instances.stream().map(Host::name).toList());
        }
        // a group holds every instance of its hosts
        Map<String, List<String>> expanded = new LinkedHashMap<>();
        members.forEach((group, names) -> expanded.put(
                group,
                names.stream()
                        .flatMap(n -> instanceNames.getOrDefault(n, List.of(n)).stream())
                        .toList()));
        Map<String, AnsibleInventory.GroupShape> shapes = new LinkedHashMap<>();
        groups.values()
                .forEach(g -> shapes.put(
                        g.name,
                        new AnsibleInventory.GroupShape(
                                g.children.stream().map(c -> c.name).toList(),
                                List.copyOf(g.hosts),
                                plainVars(g.vars))));
        List<String> found = new ArrayList<>(warnings);
        found.addAll(resolver.warnings());
        return new AnsibleInventory(new Inventory(Optional.of(file), resolved, expanded, found), shapes);
    }

    /**
     * Ansible's magic variables of a host that mean something on the control node and that fleetfix can give:
     * {@code inventory_file}, {@code inventory_dir} and {@code groups}. Others ({@code ansible_playbook_python},
     * {@code hostvars}) are undefined here: a value that uses one is kept as written until something uses it.
     */
    private static Map<String, Object> magic(HostDef host, Map<String, List<String>> members) {
        Path file = host.file.toAbsolutePath().normalize();
        Map<String, Object> magic = new LinkedHashMap<>();
        magic.put("inventory_file", file.toString());
        magic.put(
                "inventory_dir",
                file.getParent() == null ? "" : file.getParent().toString());
        magic.put("groups", java.util.Collections.unmodifiableMap(members));
        return magic;
    }

    private static Map<String, Object> plainVars(Map<String, YamlValue> vars) {
        Map<String, Object> out = new LinkedHashMap<>();
        vars.forEach((k, v) -> out.put(k, v.plain()));
        return out;
    }

    /** Ansible's sort_groups: depth, then ansible_group_priority, then name; later groups win. */
    private List<GroupDef> sortedGroups(HostDef host, Map<GroupDef, Integer> depth) {
        Set<GroupDef> all = new LinkedHashSet<>();
        for (GroupDef direct : host.directGroups) {
            all.add(direct);
            all.addAll(ancestors(direct));
        }
        return all.stream()
                .sorted(Comparator.<GroupDef>comparingInt(depth::get)
                        .thenComparingInt(g -> g.priority)
                        .thenComparing(g -> g.name))
                .toList();
    }

    /** Depth is the longest path from {@code all}, as Ansible computes it while adding children. */
    private Map<GroupDef, Integer> depths() {
        Map<GroupDef, Integer> depth = new LinkedHashMap<>();
        groups.values().forEach(g -> depth.put(g, 0));
        List<GroupDef> level = List.of(group(ALL));
        for (int d = 1; !level.isEmpty(); d++) {
            List<GroupDef> next = new ArrayList<>();
            for (GroupDef parent : level) {
                for (GroupDef child : parent.children) {
                    if (depth.get(child) < d) {
                        depth.put(child, d);
                        next.add(child);
                    }
                }
            }
            level = next;
        }
        return depth;
    }

    /**
     * A group's hosts, its own first, then its descendants' level by level, each host once. This is
     * Ansible's Group.get_hosts order, except that Ansible walks grandchildren in set order (not
     * stable); here they follow the file.
     */
    private List<String> flattenHosts(GroupDef group) {
        Set<String> out = new LinkedHashSet<>();
        Set<GroupDef> seen = new LinkedHashSet<>();
        List<GroupDef> level = List.of(group);
        while (!level.isEmpty()) {
            List<GroupDef> next = new ArrayList<>();
            for (GroupDef g : level) {
                if (seen.add(g)) {
                    out.addAll(g.hosts);
                    next.addAll(g.children);
                }
            }
            level = next;
        }
        return List.copyOf(out);
    }

    private static Set<GroupDef> ancestors(GroupDef group) {
        Set<GroupDef> out = new LinkedHashSet<>();
        List<GroupDef> todo = new ArrayList<>(group.parents);
        while (!todo.isEmpty()) {
            GroupDef g = todo.remove(todo.size() - 1);
            if (out.add(g)) {
                todo.addAll(g.parents);
            }
        }
        return out;
    }

    private GroupDef group(String name) {
        return groups.computeIfAbsent(name, GroupDef::new);
    }

    private InputException error(YamlValue at, String message) {
        return new InputException(file, at.line(), at.column(), message);
    }

    static String describe(YamlValue node) {
        Object value = node.value();
        if (value == null) {
            return "empty";
        }
        if (value instanceof Map) {
            return "a mapping";
        }
        if (value instanceof List) {
            return "a list";
        }
        if (value instanceof String s) {
            return "\"" + s + "\"";
        }
        return String.valueOf(value);
    }

    private static final class GroupDef {
        final String name;
        final Map<String, YamlValue> vars = new LinkedHashMap<>();
        final List<GroupDef> children = new ArrayList<>();
        final List<GroupDef> parents = new ArrayList<>();
        // A set: a group may list 100,000 hosts, and a list's contains() made loading quadratic.
        final Set<String> hosts = new LinkedHashSet<>();
        int priority = 1;

        GroupDef(String name) {
            this.name = name;
        }

        void setVariable(YamlValue.Entry field, InventoryLoader loader) {
            if (field.key().equals("ansible_group_priority")) {
                priority = loader.priority(this, field.value());
            } else {
                loader.setTrackedVariable(vars, field);
            }
        }
    }

    private int priority(GroupDef group, YamlValue value) {
        Object v = value.value();
        try {
            if (v instanceof Integer i) {
                return i;
            }
            if (v instanceof String s) {
                return Integer.parseInt(s.strip());
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw error(
                value, "group " + group.name + ": ansible_group_priority must be an integer, was " + describe(value));
    }

    private static final class HostDef {
        final String name;
        final YamlValue.Entry where;
        /** The source that named the host first: its inventory_file. */
        final Path file;

        final Map<String, YamlValue> vars = new LinkedHashMap<>();
        final List<GroupDef> directGroups = new ArrayList<>();

        HostDef(String name, YamlValue.Entry where, Path file) {
            this.name = name;
            this.where = where;
            this.file = file;
        }
    }
}
