package dev.fleetfix.playbook;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A YAML document read into nodes that remember where they were written, so that every error can
 * name file:line:column. Jackson's tree model drops locations; its token stream keeps them.
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

    static Node read(Path file, String text) {
        try (JsonParser parser = new YAMLFactory().createParser(text)) {
            JsonToken first = parser.nextToken();
            if (first == null) {
                throw new Location(file, 1, 1).error("the playbook is empty");
            }
            return node(file, parser);
        } catch (JsonProcessingException e) {
            JsonLocation where = e.getLocation();
            int line = where == null ? 0 : where.getLineNr();
            int column = where == null ? 0 : where.getColumnNr();
            throw new Location(file, Math.max(line, 0), Math.max(column, 0))
                    .error("not valid YAML: " + e.getOriginalMessage());
        } catch (IOException e) {
            throw new Location(file, 0, 0).error("cannot read: " + e.getMessage());
        }
    }

    private static Node node(Path file, JsonParser parser) throws IOException {
        Location at = at(file, parser);
        JsonToken token = parser.currentToken();
        switch (token) {
            case START_OBJECT -> {
                Map<String, Entry> entries = new LinkedHashMap<>();
                while (parser.nextToken() == JsonToken.FIELD_NAME) {
                    String key = parser.currentName();
                    Location keyAt = at(file, parser);
                    parser.nextToken();
                    if (entries.containsKey(key)) {
                        throw keyAt.error("duplicate key '" + key + "'");
                    }
                    entries.put(key, new Entry(key, keyAt, node(file, parser)));
                }
                return new MapNode(Collections.unmodifiableMap(entries), at);
            }
            case START_ARRAY -> {
                List<Node> items = new ArrayList<>();
                while (parser.nextToken() != JsonToken.END_ARRAY) {
                    items.add(node(file, parser));
                }
                return new ListNode(List.copyOf(items), at);
            }
            case VALUE_STRING -> {
                return new ScalarNode(parser.getText(), at);
            }
            case VALUE_NUMBER_INT -> {
                return new ScalarNode(parser.getLongValue(), at);
            }
            case VALUE_NUMBER_FLOAT -> {
                return new ScalarNode(parser.getDoubleValue(), at);
            }
            case VALUE_TRUE, VALUE_FALSE -> {
                return new ScalarNode(parser.getBooleanValue(), at);
            }
            case VALUE_NULL -> {
                return new ScalarNode(null, at);
            }
            default -> throw at.error("unexpected YAML token " + token);
        }
    }

    private static Location at(Path file, JsonParser parser) {
        JsonLocation where = parser.currentTokenLocation();
        return new Location(file, Math.max(where.getLineNr(), 0), Math.max(where.getColumnNr(), 0));
    }
}
