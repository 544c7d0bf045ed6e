package dev.fleetfix.inventory;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * An inventory with its group structure as Ansible holds it: what {@code fleetfix inventory --list}
 * and {@code --graph} print in {@code ansible-inventory}'s shapes.
 *
 * @param inventory the resolved hosts and flattened group members
 * @param groups every group in definition order, {@code all} and {@code ungrouped} first
 */
public record AnsibleInventory(Inventory inventory, Map<String, GroupShape> groups) {

    public AnsibleInventory {
        Objects.requireNonNull(inventory, "inventory");
        groups = Collections.unmodifiableMap(new LinkedHashMap<>(groups));
    }

    /**
     * One group as defined, before flattening.
     *
     * @param children direct child groups, in the order they were added
     * @param hosts hosts that are direct members, in the order they were added
     * @param vars the group's own inventory variables (not group_vars files)
     */
    public record GroupShape(List<String> children, List<String> hosts, Map<String, Object> vars) {
        public GroupShape {
            children = List.copyOf(children);
            hosts = List.copyOf(hosts);
            vars = Collections.unmodifiableMap(new LinkedHashMap<>(vars));
        }
    }
}
