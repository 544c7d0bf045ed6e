package dev.fleetfix.redis;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads one entry of a reply that lists records as field, value pairs ({@code SENTINEL MASTERS},
 * {@code SENTINEL REPLICAS}, {@code CLUSTER LINKS}): a flat list under RESP2, a map under RESP3.
 */
public final class ReplyFields {
    private ReplyFields() {}

    /** The entry's fields in reply order; empty for anything that is neither a list nor a map. */
    public static Map<String, String> of(Object entry) {
        Map<String, String> fields = new LinkedHashMap<>();
        if (entry instanceof List<?> list) {
            for (int i = 0; i + 1 < list.size(); i += 2) {
                fields.put(String.valueOf(list.get(i)), String.valueOf(list.get(i + 1)));
            }
        } else if (entry instanceof Map<?, ?> map) {
            map.forEach((k, v) -> fields.put(String.valueOf(k), String.valueOf(v)));
        }
        return fields;
    }
}
