package dev.fleetfix.playbook;

import dev.fleetfix.yaml.LocatedYaml;
import dev.fleetfix.yaml.VaultedText;
import dev.fleetfix.yaml.YamlValue;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * A YAML document read into nodes that remember where they were written, so that every error can
 * name file:line:column.
 */
final class YamlTree {
    private YamlTree() {}

    sealed interface Node permits MapNode, ListNode, ScalarNode {
        Location at();

        /** The node as plain Java values: Map, List, String, Number, Boolean or null. */
        Object plain();

        String kind();
    }

    record Entry(String key, Location keyAt, Node value) {}

    record MapNode(Map<String, Entry> entries, Location at) implements Node {
        @Override
        public Object plain() {
            Map<String, Object> map = new LinkedHashMap<>();
            entries.forEach((k, e) -> map.put(k, e.value().plain()));
            return Collections.unmodifiableMap(map);
        }

        @Override
        public String kind() {
            return "a mapping";
        }
    }

    record ListNode(List<Node> items, Location at) implements Node {
        @Override
        public Object plain() {
            List<Object> list = new ArrayList<>();
            items.forEach(i -> list.add(i.plain()));
            return Collections.unmodifiableList(list);
        }

        @Override
        public String kind() {
            return "a list";
        }
    }

    record ScalarNode(Object value, Location at) implements Node {
        @Override
        public Object plain() {
            return value;
        }

        @Override
        public String kind() {
            return value == null ? "empty" : "a scalar";
        }

        String text() {
            return value == null ? "" : value.toString();
        }
    }

    /**
     * Reads the one document of a playbook or vars file through {@link LocatedYaml} (aliases and merge
     * keys resolved, a second document refused, a key written twice warned of and its last value
     * taken, as for every input).
     *
     * @param warnings receives what the file has that is accepted but doubted, one line each
     */
    static Node read(Path file, String text, Consumer<String> warnings) {
        YamlValue root = LocatedYaml.parse(file, text, warnings)
                .orElseThrow(() -> new Location(file, 1, 1).error("the playbook is empty"));
        return node(file, root);
    }

    private static Node node(Path file, YamlValue value) {
        Location at = new Location(file, value.line(), value.column());
        if (value instanceof YamlValue.Mapping mapping) {
            Map<String, Entry> entries = new LinkedHashMap<>();
            for (YamlValue.Entry entry : mapping.entries()) {
                Location keyAt = new Location(file, entry.line(), entry.column());
                entries.put(entry.key(), new Entry(entry.key(), keyAt, node(file, entry.value())));
            }
            return new MapNode(Collections.unmodifiableMap(entries), at);
        }
        if (value instanceof YamlValue.Sequence sequence) {
            List<Node> items = new ArrayList<>();
            sequence.items().forEach(item -> items.add(node(file, item)));
            return new ListNode(Collections.unmodifiableList(items), at);
        }
        Object scalar = ((YamlValue.Scalar) value).value();
        if (scalar instanceof VaultedText) {
            // never the ciphertext as the value: a step would send it as a password
            throw at.error("an inline !vault value in a playbook is not decrypted; put it in group_vars/ or"
                    + " host_vars/ (next to the inventory or the playbook), where fleetfix decrypts it");
        }
        return new ScalarNode(scalar, at);
    }
}
