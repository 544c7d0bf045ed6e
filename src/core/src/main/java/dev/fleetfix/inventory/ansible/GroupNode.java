package dev.fleetfix.inventory.ansible;

import dev.fleetfix.yaml.YamlValue;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** One group as the inventory's sources name it ({@link InventoryLoader}): its variables, children, parents, hosts. */
final class GroupNode {
    final String name;
    final Map<String, YamlValue> vars = new LinkedHashMap<>();
    final List<GroupNode> children = new ArrayList<>();
    final List<GroupNode> parents = new ArrayList<>();
    // A set: a group may list 100,000 hosts, and a list's contains() made loading quadratic.
    final Set<String> hosts = new LinkedHashSet<>();
    int priority = 1;

    GroupNode(String name) {
        this.name = name;
    }

    /**
     * The group's hosts, its own first, then its descendants' level by level, each host once. This is Ansible's
     * Group.get_hosts order, except that Ansible walks grandchildren in set order (not stable); here they follow the
     * file.
     */
    List<String> flattenHosts() {
        Set<String> out = new LinkedHashSet<>();
        Set<GroupNode> seen = new LinkedHashSet<>();
        List<GroupNode> level = List.of(this);
        while (!level.isEmpty()) {
            List<GroupNode> next = new ArrayList<>();
            for (GroupNode g : level) {
                if (seen.add(g)) {
                    out.addAll(g.hosts);
                    next.addAll(g.children);
                }
            }
            level = next;
        }
        return List.copyOf(out);
    }

    /** Every group above this one. */
    Set<GroupNode> ancestors() {
        Set<GroupNode> out = new LinkedHashSet<>();
        List<GroupNode> todo = new ArrayList<>(parents);
        while (!todo.isEmpty()) {
            GroupNode g = todo.remove(todo.size() - 1);
            if (out.add(g)) {
                todo.addAll(g.parents);
            }
        }
        return out;
    }

    /** Ansible's sort_groups of a host's groups and their ancestors: depth, then priority, then name; later wins. */
    static List<GroupNode> sorted(List<GroupNode> direct, Map<GroupNode, Integer> depth) {
        Set<GroupNode> all = new LinkedHashSet<>();
        for (GroupNode group : direct) {
            all.add(group);
            all.addAll(group.ancestors());
        }
        return all.stream()
                .sorted(Comparator.<GroupNode>comparingInt(depth::get)
                        .thenComparingInt(g -> g.priority)
                        .thenComparing(g -> g.name))
                .toList();
    }

    /** Each group's depth: the longest path from {@code all}, as Ansible computes it while adding children. */
    static Map<GroupNode, Integer> depths(Collection<GroupNode> groups, GroupNode all) {
        Map<GroupNode, Integer> depth = new LinkedHashMap<>();
        groups.forEach(g -> depth.put(g, 0));
        List<GroupNode> level = List.of(all);
        for (int d = 1; !level.isEmpty(); d++) {
            List<GroupNode> next = new ArrayList<>();
            for (GroupNode parent : level) {
                for (GroupNode child : parent.children) {
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
}
