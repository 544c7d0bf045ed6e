package dev.fleetfix.yaml;

import java.util.List;

/**
 * A YAML value as {@link LocatedYaml} reads it: aliases and merge keys already resolved, and every
 * node still knowing the 1-based line and column where it was written, for errors.
 */
public sealed interface YamlValue permits YamlValue.Mapping, YamlValue.Sequence, YamlValue.Scalar {

    int line();

    int column();

    /**
     * A mapping in file order, each key once: a key written twice keeps its first position and its
     * last value ({@link LocatedYaml#parse} warns of it). Keys brought in by a {@code <<} merge come
     * first and only when the mapping does not set them itself.
     */
    record Mapping(List<Entry> entries, int line, int column) implements YamlValue {
        public Mapping {
            entries = List.copyOf(entries);
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
    }

    /**
     * A scalar typed as YAML 1.1 (PyYAML, hence Ansible) types plain scalars.
     *
     * @param value {@code null}, a String, a Boolean, an Integer, Long or BigInteger, or a Double
     */
    record Scalar(Object value, int line, int column) implements YamlValue {}
}
