package dev.fleetfix.inventory.ansible;

import dev.fleetfix.InputException;
import dev.fleetfix.inventory.AnsibleInventory;
import dev.fleetfix.inventory.Host;
import dev.fleetfix.inventory.Inventory;
import dev.fleetfix.inventory.ansible.vault.VaultKeyring;
import dev.fleetfix.yaml.YamlValue;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

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

    /** The source being read; with several sources (a directory inventory) it changes per source. */
    private Path file;

    /** Whether the source being read expands host ranges (all do but a host list). */
    private boolean ranges = true;

    private final Map<String, GroupNode> groups = new LinkedHashMap<>();
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

    private GroupNode parseGroup(YamlValue.Entry field) {
        GroupNode group = group(field.key());
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
                case "vars" -> entries.values().forEach(v -> setGroupVariable(group, v));
                case "children" -> entries.values().forEach(child -> addChild(group, parseGroup(child), child));
                default -> entries.values()
                        .forEach(key -> new HostKeys(file, ranges).hosts(key).forEach(h -> parseHost(group, h)));
            }
        }
        return group;
    }

    /** A section's entries; a bare string ({@code hosts: redis-1}) is one entry with no body, as in Ansible. */
    private Map<String, YamlValue.Entry> entries(GroupNode group, YamlValue.Entry section) {
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

    private void parseHost(GroupNode group, YamlValue.Entry entry) {
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

    private void addChild(GroupNode parent, GroupNode child, YamlValue.Entry where) {
        if (parent == child || parent.ancestors().contains(child)) {
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
        placeOrphans();
        Map<GroupNode, Integer> depth = GroupNode.depths(groups.values(), group(ALL));
        Map<String, List<String>> members = new LinkedHashMap<>();
        groups.values().forEach(g -> members.put(g.name, g.flattenHosts()));
        HostResolver resolver = new HostResolver(
                file, node -> origins.getOrDefault(node, extra.origins().get(node)));
        List<Host> resolved = new ArrayList<>();
        Map<String, List<String>> instanceNames = new LinkedHashMap<>();
        for (String name : members.get(ALL)) {
            HostDef host = hosts.get(name);
            List<String> sorted = GroupNode.sorted(host.directGroups, depth).stream()
                    .map(g -> g.name)
                    .toList();
            List<Host> instances =
                    resolver.resolveAll(name, host.where, sorted, magic(host, members), layers(host, sorted, extra));
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
        List<String> found = new ArrayList<>(warnings);
        found.addAll(resolver.warnings());
        return new AnsibleInventory(new Inventory(Optional.of(file), resolved, expanded, found), shapes());
    }

    /** As Ansible: a group without a parent is a child of all, a host without a group is in ungrouped, only there. */
    private void placeOrphans() {
        GroupNode all = group(ALL);
        GroupNode ungrouped = group(UNGROUPED);
        for (GroupNode group : List.copyOf(groups.values())) {
            if (group != all && group.parents.isEmpty()) {
                all.children.add(group);
                group.parents.add(all);
            }
        }
        for (HostDef host : hosts.values()) {
            Set<GroupNode> mine = new LinkedHashSet<>(host.directGroups);
            mine.remove(all);
            if (mine.isEmpty()) {
                ungrouped.hosts.add(host.name);
                host.directGroups.add(ungrouped);
            } else if (mine.size() > 1 && mine.remove(ungrouped)) {
                ungrouped.hosts.remove(host.name);
                host.directGroups.remove(ungrouped);
            }
        }
    }

    /**
     * A host's variable layers in Ansible's order: inventory group vars (its groups sorted), group_vars/all,
     * group_vars/GROUP (sorted), host vars, host_vars/HOST.
     */
    private List<Map<String, YamlValue>> layers(HostDef host, List<String> sortedGroups, VarsLayers extra) {
        List<Map<String, YamlValue>> layers = new ArrayList<>();
        sortedGroups.forEach(g -> layers.add(groups.get(g).vars));
        layers.addAll(extra.groups(sortedGroups));
        layers.add(host.vars);
        layers.addAll(extra.host(host.name));
        return layers;
    }

    /** Each group's children, own hosts and variables, for --list and --graph. */
    private Map<String, AnsibleInventory.GroupShape> shapes() {
        Map<String, AnsibleInventory.GroupShape> shapes = new LinkedHashMap<>();
        groups.values()
                .forEach(g -> shapes.put(
                        g.name,
                        new AnsibleInventory.GroupShape(
                                g.children.stream().map(c -> c.name).toList(),
                                List.copyOf(g.hosts),
                                plainVars(g.vars))));
        return shapes;
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

    private GroupNode group(String name) {
        return groups.computeIfAbsent(name, GroupNode::new);
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

    private void setGroupVariable(GroupNode group, YamlValue.Entry field) {
        if (field.key().equals("ansible_group_priority")) {
            group.priority = priority(group, field.value());
        } else {
            setTrackedVariable(group.vars, field);
        }
    }

    private int priority(GroupNode group, YamlValue value) {
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
        final List<GroupNode> directGroups = new ArrayList<>();

        HostDef(String name, YamlValue.Entry where, Path file) {
            this.name = name;
            this.where = where;
            this.file = file;
        }
    }
}
