package dev.fleetfix.inventory;

import dev.fleetfix.Secret;
import dev.fleetfix.inventory.vault.VaultKeyring;
import dev.fleetfix.yaml.LocatedYaml;
import dev.fleetfix.yaml.VaultedText;
import dev.fleetfix.yaml.YamlValue;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * A YAML value and the place it starts in its file, so that every later error can still name
 * file:line:column.
 *
 * @param value {@code null}, a String, Boolean or Number, a {@code List<YamlNode>}, a
 *     {@code Map<String, Field>} in file order, or a {@link Secret}: the plaintext of an inline
 *     {@code !vault} value
 */
record YamlNode(Object value, int line, int column) {

    /**
     * A mapping entry: the key's own position, for errors about the key.
     *
     * @param textKey whether the key was a YAML string, not a number or boolean written as a key
     */
    record Field(String key, int line, int column, YamlNode value, boolean textKey) {
        Field(String key, int line, int column, YamlNode value) {
            this(key, line, column, value, true);
        }
    }

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

    /** Reads the one document of a YAML file; empty when it holds no document or only null. */
    static Optional<YamlNode> read(Path file) {
        return read(file, warning -> {}, VaultKeyring.none());
    }

    /**
     * Reads the one document of a YAML file through {@link LocatedYaml}, which bounds its size,
     * resolves aliases and merge keys, and keeps the last value of a key written twice, telling
     * {@code warnings}. A vault-encrypted file, and each {@code !vault} value, is decrypted with
     * {@code vault}'s passwords; without one it is refused, naming file and line.
     */
    static Optional<YamlNode> read(Path file, Consumer<String> warnings, VaultKeyring vault) {
        String text = vault.reveal(file, LocatedYaml.readText(file, "inventory"));
        return LocatedYaml.parse(file, text, warnings).map(value -> of(value, file, vault));
    }

    static YamlNode of(YamlValue value, Path file, VaultKeyring vault) {
        if (value instanceof YamlValue.Mapping mapping) {
            Map<String, Field> fields = new LinkedHashMap<>();
            for (YamlValue.Entry entry : mapping.entries()) {
                fields.put(
                        entry.key(),
                        new Field(
                                entry.key(),
                                entry.line(),
                                entry.column(),
                                of(entry.value(), file, vault),
                                entry.textKey()));
            }
            return new YamlNode(Collections.unmodifiableMap(fields), mapping.line(), mapping.column());
        }
        if (value instanceof YamlValue.Sequence sequence) {
            List<YamlNode> items = new ArrayList<>();
            sequence.items().forEach(item -> items.add(of(item, file, vault)));
            return new YamlNode(Collections.unmodifiableList(items), sequence.line(), sequence.column());
        }
        YamlValue.Scalar scalar = (YamlValue.Scalar) value;
        if (scalar.value() instanceof VaultedText vaulted) {
            // a value its author chose to encrypt is a secret whatever its name: listings show "******"
            String plain = vault.decrypt(vaulted.envelope(), file, scalar.line());
            return new YamlNode(Secret.of(plain), scalar.line(), scalar.column());
        }
        return new YamlNode(scalar.value(), scalar.line(), scalar.column());
    }
}
