package dev.fleetfix.inventory.ansible;

import dev.fleetfix.yaml.YamlValue;
import java.nio.file.Path;
import java.util.List;

/**
 * One inventory source read into YAML-inventory shaped documents (groups of hosts, vars, children),
 * whatever its format: INI sections, a script's JSON and YAML files all end up as these, so one
 * loader builds the groups, ranges and precedence for every format.
 *
 * @param ranges whether {@code r[1:3]} stands for three hosts: not in a host list ({@code -i 'r[1:3],'}), which
 *     Ansible's host_list plugin reads as one host of that name
 */
record InventorySource(Path file, List<YamlValue> documents, List<String> warnings, boolean ranges) {
    InventorySource {
        documents = List.copyOf(documents);
        warnings = List.copyOf(warnings);
    }

    InventorySource(Path file, List<YamlValue> documents, List<String> warnings) {
        this(file, documents, warnings, true);
    }

    InventorySource(Path file, List<YamlValue> documents) {
        this(file, documents, List.of());
    }
}
