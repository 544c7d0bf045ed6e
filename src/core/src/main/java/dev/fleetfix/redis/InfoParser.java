package dev.fleetfix.redis;

import java.util.LinkedHashMap;
import java.util.Map;

/** Parses the text of Redis INFO ("# Section" headers, "key:value" lines) into a map. */
public final class InfoParser {
    private InfoParser() {}

    public static Map<String, String> parse(String info) {
        Map<String, String> fields = new LinkedHashMap<>();
        for (String line : info.split("\r?\n")) {
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            int colon = line.indexOf(':');
            if (colon > 0) {
                fields.put(line.substring(0, colon), line.substring(colon + 1).strip());
            }
        }
        return fields;
    }
}
