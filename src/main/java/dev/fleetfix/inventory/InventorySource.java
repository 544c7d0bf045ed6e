package dev.fleetfix.inventory;

import java.nio.file.Path;
import java.util.List;

/**
 * One inventory source read into YAML-inventory shaped documents (groups of hosts, vars, children),
 * whatever its format: INI sections, a script's JSON and YAML files all end up as these, so one
 * loader builds the groups, ranges and precedence for every format.
 */
record InventorySource(Path file, List<YamlNode> documents, List<String> warnings) {
    InventorySource {
        documents = List.copyOf(documents);
        warnings = List.copyOf(warnings);
    }

    InventorySource(Path file, List<YamlNode> documents) {
        this(file, documents, List.of());
    }
}
