package dev.fleetfix.inventory.ansible;

import dev.fleetfix.yaml.YamlValue;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/** Variables from outside the inventory sources (group_vars/, host_vars/), as layers, later wins. */
interface VarsLayers {
    VarsLayers NONE = new VarsLayers() {
        @Override
        public List<Map<String, YamlValue>> groups(List<String> groups) {
            return List.of();
        }

        @Override
        public List<Map<String, YamlValue>> host(String host) {
            return List.of();
        }
    };

    /** The file each value came from, for errors that name it. */
    default Map<YamlValue, Path> origins() {
        return Map.of();
    }

    /**
     * Layers for a host's groups (given in Ansible's sort order, {@code all} first), applied after
     * every inventory group variable.
     */
    List<Map<String, YamlValue>> groups(List<String> groups);

    /** Layers for the host, applied after its inventory variables. */
    List<Map<String, YamlValue>> host(String host);
}
