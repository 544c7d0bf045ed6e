package dev.fleetfix.yaml;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A YAML value as {@link LocatedYaml} reads it: aliases and merge keys already resolved, and every node still knowing
 * the 1-based line and column where it was written, for errors. It is the one tree of every input: playbooks,
 * inventories, group_vars and host_vars, extra vars; values that come from INI, JSON or a script are placed at a line
 * with {@link #of}.
 */
public sealed interface YamlValue permits YamlValue.Mapping, YamlValue.Sequence, YamlValue.Scalar {

    int line();

    int column();

    /**
     * The node's content, for a pattern match: a mapping's entries by key ({@code Map<String, Entry>}), a sequence's
     * items ({@code List<YamlValue>}), or a scalar's value.
     */
    Object value();

    /**
     * The value as plain Java objects: an unmodifiable {@code Map<String, Object>} in file order, an unmodifiable
     * {@code List<Object>}, or a scalar's value.
     */
    Object plain();

    /** What the value is, for a message: "a mapping", "a list", "a scalar" or "empty". */
    String kind();

    /** Whether this is a mapping. */
    default boolean isMapping() {
        return this instanceof Mapping;
    }

    /** A mapping's entries by key, in file order; only for a mapping ({@link #isMapping()}). */
    default Map<String, Entry> fields() {
        throw new IllegalStateException("not a mapping but " + kind() + " (line " + line() + ")");
    }

    /** Whether this is a scalar whose value is null ({@code ~}, {@code null} or nothing). */
    default boolean isNull() {
        return this instanceof Scalar scalar && scalar.value() == null;
    }

    /**
     * A plain value (maps, lists and scalars, as JSON or an INI line give them) as a tree placed at {@code line} and
     * {@code column}, so that errors about it still name a place.
     */
    static YamlValue of(Object plain, int line, int column) {
        if (plain instanceof Map<?, ?> map) {
            List<Entry> entries = new ArrayList<>();
            map.forEach((k, v) -> entries.add(new Entry(String.valueOf(k), line, column, of(v, line, column))));
            return new Mapping(entries, line, column);
        }
        if (plain instanceof List<?> list) {
            List<YamlValue> items = new ArrayList<>();
            list.forEach(v -> items.add(of(v, line, column)));
            return new Sequence(items, line, column);
        }
        return new Scalar(plain, line, column);
    }

    /**
     * A mapping in file order, each key once: a key written twice keeps its first position and its last value
     * ({@link LocatedYaml#parse} warns of it). Keys brought in by a {@code <<} merge come first and only when the
     * mapping does not set them itself.
     *
     * @param fields the entries by key, in file order
     */
    record Mapping(Map<String, Entry> fields, int line, int column) implements YamlValue {
        @Override
        public Map<String, Entry> fields() {
            return fields;
        }

        public Mapping {
            fields = Collections.unmodifiableMap(new LinkedHashMap<>(fields));
        }

        /** The mapping of {@code entries}, in their order; a key given twice keeps the last entry. */
        public Mapping(List<Entry> entries, int line, int column) {
            this(byKey(entries), line, column);
        }

        private static Map<String, Entry> byKey(List<Entry> entries) {
            Map<String, Entry> fields = new LinkedHashMap<>();
            entries.forEach(entry -> fields.put(entry.key(), entry));
            return fields;
        }

        @Override
        public Map<String, Entry> value() {
            return fields;
        }

        /** The entries in file order. */
        public List<Entry> entries() {
            return List.copyOf(fields.values());
        }

        /** The value of {@code key}; null when the mapping has no such key. */
        public YamlValue get(String key) {
            Entry entry = fields.get(key);
            return entry == null ? null : entry.value();
        }

        @Override
        public Object plain() {
            Map<String, Object> out = new LinkedHashMap<>();
            fields.forEach((key, entry) -> out.put(key, entry.value().plain()));
            return Collections.unmodifiableMap(out);
        }

        @Override
        public String kind() {
            return "a mapping";
        }
    }

    /**
     * One mapping entry; the position is the key's.
     *
     * @param textKey whether YAML types the key as a string: {@code 1234:} is an integer key and {@code true:} a
     *     boolean one, which Ansible refuses where it wants a name (a host)
     */
    record Entry(String key, int line, int column, YamlValue value, boolean textKey) {
        public Entry(String key, int line, int column, YamlValue value) {
            this(key, line, column, value, true);
        }
    }

    record Sequence(List<YamlValue> items, int line, int column) implements YamlValue {
        public Sequence {
            items = List.copyOf(items);
        }

        @Override
        public List<YamlValue> value() {
            return items;
        }

        @Override
        public Object plain() {
            List<Object> out = new ArrayList<>();
            items.forEach(item -> out.add(item.plain()));
            return Collections.unmodifiableList(out);
        }

        @Override
        public String kind() {
            return "a list";
        }
    }

    /**
     * A scalar typed as YAML 1.1 (PyYAML, hence Ansible) types plain scalars.
     *
     * @param value {@code null}, a String, a Boolean, an Integer, Long or BigInteger, a Double, a {@link VaultedText}
     *     (an inline {@code !vault} value) or what a {@link VaultedText.Opener} made of one (a secret)
     */
    record Scalar(Object value, int line, int column) implements YamlValue {
        @Override
        public Object plain() {
            return value;
        }

        @Override
        public String kind() {
            return value == null ? "empty" : "a scalar";
        }

        /** The value as text; empty for null. */
        public String text() {
            return value == null ? "" : value.toString();
        }
    }
}
