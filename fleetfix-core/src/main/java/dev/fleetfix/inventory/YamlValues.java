package dev.fleetfix.inventory;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Plain values (from INI or JSON) as {@link YamlNode}s placed at one line, for the loader. */
final class YamlValues {
    private YamlValues() {}

    static YamlNode node(Object value, int line) {
        if (value instanceof Map<?, ?> map) {
            Map<String, YamlNode.Field> fields = new LinkedHashMap<>();
            map.forEach((k, v) -> {
                String key = String.valueOf(k);
                fields.put(key, new YamlNode.Field(key, line, 0, node(v, line)));
            });
            return new YamlNode(Collections.unmodifiableMap(fields), line, 0);
        }
        if (value instanceof List<?> list) {
            List<YamlNode> items = new ArrayList<>();
            list.forEach(v -> items.add(node(v, line)));
            return new YamlNode(Collections.unmodifiableList(items), line, 0);
        }
        return new YamlNode(value, line, 0);
    }
}
