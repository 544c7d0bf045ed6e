package dev.fleetfix.inventory;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.fleetfix.InputException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.yaml.snakeyaml.error.MarkedYAMLException;

/**
 * A YAML value and the place it starts in its file. Jackson's tree model drops locations, so the
 * inventory is read token by token into these nodes, and every later error can still name
 * file:line:column.
 *
 * @param value {@code null}, a String, Boolean or Number, a {@code List<YamlNode>}, or a
 *     {@code Map<String, Field>} in file order
 */
record YamlNode(Object value, int line, int column) {

    /** A mapping entry: the key's own position, for errors about the key. */
    record Field(String key, int line, int column, YamlNode value) {}

    private static final YAMLFactory FACTORY = new YAMLFactory();

    boolean isMapping() {
        return value instanceof Map;
    }

    boolean isNull() {
        return value == null;
    }

    @SuppressWarnings("unchecked")
    Map<String, Field> fields() {
        return (Map<String, Field>) value;
    }

    /** The value as plain Java objects (maps keep file order), for {@link Host#vars()}. */
    Object plain() {
        if (value instanceof Map<?, ?> map) {
            Map<String, Object> out = new LinkedHashMap<>();
            map.values()
                    .forEach(f -> out.put(((Field) f).key(), ((Field) f).value().plain()));
            return Collections.unmodifiableMap(out);
        }
        if (value instanceof List<?> list) {
            List<Object> out = new ArrayList<>();
            list.forEach(item -> out.add(((YamlNode) item).plain()));
            return Collections.unmodifiableList(out);
        }
        return value;
    }

    /** Reads the first document of a YAML file; empty when the file holds no document or only null. */
    static Optional<YamlNode> read(Path file) {
        String text;
        try {
            text = Files.readString(file);
        } catch (NoSuchFileException e) {
            throw new InputException("inventory " + file + ": no such file");
        } catch (IOException e) {
            throw new InputException("inventory " + file + ": cannot read: " + e.getMessage());
        }
        try (JsonParser parser = FACTORY.createParser(text)) {
            if (parser.nextToken() == null) {
                return Optional.empty();
            }
            YamlNode root = readValue(parser);
            return root.isNull() ? Optional.empty() : Optional.of(root);
        } catch (JsonProcessingException e) {
            JsonLocation where = e.getLocation();
            int line = where == null ? 0 : where.getLineNr();
            int column = where == null ? 0 : where.getColumnNr();
            throw new InputException(file, line, column, "YAML syntax error: " + syntaxProblem(e));
        } catch (IOException e) {
            throw new InputException("inventory " + file + ": cannot read: " + e.getMessage());
        }
    }

    private static YamlNode readValue(JsonParser parser) throws IOException {
        JsonLocation where = parser.currentTokenLocation();
        int line = where.getLineNr();
        int column = where.getColumnNr();
        JsonToken token = parser.currentToken();
        return switch (token) {
            case START_OBJECT -> new YamlNode(readMapping(parser), line, column);
            case START_ARRAY -> new YamlNode(readSequence(parser), line, column);
            case VALUE_STRING -> new YamlNode(parser.getText(), line, column);
            case VALUE_NUMBER_INT, VALUE_NUMBER_FLOAT -> new YamlNode(parser.getNumberValue(), line, column);
            case VALUE_TRUE -> new YamlNode(Boolean.TRUE, line, column);
            case VALUE_FALSE -> new YamlNode(Boolean.FALSE, line, column);
            case VALUE_NULL -> new YamlNode(null, line, column);
            default -> new YamlNode(parser.getText(), line, column);
        };
    }

    private static Map<String, Field> readMapping(JsonParser parser) throws IOException {
        Map<String, Field> fields = new LinkedHashMap<>();
        while (parser.nextToken() == JsonToken.FIELD_NAME) {
            String key = parser.currentName();
            JsonLocation where = parser.currentTokenLocation();
            parser.nextToken();
            YamlNode value = readValue(parser);
            // A repeated key replaces the value but keeps its first position, as Python's dict does.
            fields.put(key, new Field(key, where.getLineNr(), where.getColumnNr(), value));
        }
        return Collections.unmodifiableMap(fields);
    }

    private static List<YamlNode> readSequence(JsonParser parser) throws IOException {
        List<YamlNode> items = new ArrayList<>();
        while (parser.nextToken() != JsonToken.END_ARRAY) {
            items.add(readValue(parser));
        }
        return Collections.unmodifiableList(items);
    }

    /** SnakeYAML's context and problem ("while parsing a block mapping: expected <block end>, ..."). */
    private static String syntaxProblem(JsonProcessingException e) {
        if (e.getCause() instanceof MarkedYAMLException marked && marked.getProblem() != null) {
            String context = marked.getContext();
            return (context == null ? "" : context + ": ") + marked.getProblem();
        }
        return firstLine(e.getOriginalMessage());
    }

    private static String firstLine(String message) {
        if (message == null) {
            return "unreadable";
        }
        return message.strip().lines().findFirst().orElse(message).strip();
    }
}
