package dev.fleetfix.inventory.ansible;

import dev.fleetfix.InputException;
import dev.fleetfix.inventory.ansible.vault.VaultKeyring;
import dev.fleetfix.yaml.YamlValue;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.regex.Pattern;

/**
 * Variables given on the command line ({@code -e}/{@code --extra-vars}), read as {@code ansible-playbook} reads
 * them: {@code @FILE} (YAML or JSON), a JSON or YAML mapping ({@code {"a": 1}}), or {@code key=value} words (shell
 * quoting; every value a string). Several options merge, the later winning. They are the top layer of every host's
 * variables, above the inventory, group_vars, host_vars and the plays' {@code vars}, as in Ansible.
 */
public final class ExtraVars {
    private static final Pattern NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");
    private static final ExtraVars NONE = new ExtraVars(Map.of(), Map.of());

    private final Map<String, YamlValue> layer;
    private final Map<YamlValue, Path> origins;

    private ExtraVars(Map<String, YamlValue> layer, Map<YamlValue, Path> origins) {
        this.layer = Collections.unmodifiableMap(new LinkedHashMap<>(layer));
        this.origins = origins;
    }

    static ExtraVars none() {
        return NONE;
    }

    /**
     * Reads each {@code -e} value in order; a name given twice takes the later value.
     *
     * @param warnings told of a key written twice inside one YAML value
     * @throws InputException naming the option (or its file, with line and column) for a value that is not a
     *     mapping, a word that is not {@code key=value}, a name that is not a variable name, or an unreadable file
     */
    static ExtraVars parse(List<String> options, Consumer<String> warnings) {
        return parse(options, warnings, VaultKeyring.none());
    }

    /** As {@link #parse(List, Consumer)}; a vault-encrypted {@code @FILE} and {@code !vault} values are decrypted. */
    static ExtraVars parse(List<String> options, Consumer<String> warnings, VaultKeyring vault) {
        Map<String, YamlValue> layer = new LinkedHashMap<>();
        Map<YamlValue, Path> origins = new IdentityHashMap<>();
        for (String option : options) {
            String text = option.strip();
            if (text.isEmpty()) {
                continue;
            }
            if (text.startsWith("@")) {
                Path file = Path.of(text.substring(1));
                if (!Files.isRegularFile(file)) {
                    throw new InputException("-e " + option + ": no such file " + file);
                }
                // every value of a vault-encrypted file is a secret, as an inline !vault value is
                mapping(file, InventoryYaml.readVariables(file, "extra vars", warnings, vault))
                        .forEach((k, v) -> put(layer, origins, file, k, v));
            } else if (text.startsWith("{")) {
                Path where = Path.of("-e");
                mapping(where, InventoryYaml.parse(where, text, warnings, vault))
                        .forEach((k, v) -> put(layer, origins, where, k, v));
            } else {
                keyValues(option)
                        .forEach((k, v) -> put(layer, origins, Path.of("-e"), k, new YamlValue.Scalar(v, 0, 0)));
            }
        }
        return layer.isEmpty() ? NONE : new ExtraVars(layer, origins);
    }

    private static Map<String, YamlValue> mapping(Path where, Optional<YamlValue> doc) {
        if (doc.isEmpty()) {
            return Map.of();
        }
        if (!doc.get().isMapping()) {
            throw new InputException(
                    where, doc.get().line(), doc.get().column(), "extra vars must be a mapping of names to values");
        }
        Map<String, YamlValue> out = new LinkedHashMap<>();
        doc.get().fields().forEach((k, f) -> {
            if (!NAME.matcher(k).matches()) {
                throw new InputException(where, f.line(), f.column(), "'" + k + "' is not a valid variable name");
            }
            out.put(k, f.value());
        });
        return out;
    }

    private static Map<String, String> keyValues(String option) {
        List<String> words;
        try {
            words = Shlex.split(option, false);
        } catch (IllegalArgumentException e) {
            throw new InputException("-e " + option + ": " + e.getMessage());
        }
        Map<String, String> out = new LinkedHashMap<>();
        for (String word : words) {
            int eq = word.indexOf('=');
            if (eq < 0) {
                throw new InputException("-e " + option + ": '" + word
                        + "' is not key=value (use -e 'key=value', -e '{\"key\": value}' or -e @FILE)");
            }
            String name = word.substring(0, eq);
            if (!NAME.matcher(name).matches()) {
                throw new InputException("-e " + option + ": '" + name + "' is not a valid variable name");
            }
            out.put(name, word.substring(eq + 1));
        }
        return out;
    }

    private static void put(
            Map<String, YamlValue> layer, Map<YamlValue, Path> origins, Path file, String key, YamlValue value) {
        layer.remove(key); // a later option's key takes the later position too
        layer.put(key, value);
        origins.put(value, file);
    }

    boolean isEmpty() {
        return layer.isEmpty();
    }

    /** The variables as plain values (String, Number, Boolean, List, Map), in the order given. */
    public Map<String, Object> values() {
        Map<String, Object> out = new LinkedHashMap<>();
        layer.forEach((k, v) -> out.put(k, v.plain()));
        return Collections.unmodifiableMap(out);
    }

    Map<String, YamlValue> layer() {
        return layer;
    }

    /** Extra vars as the top layer over {@code below}: after every host's own. */
    VarsLayers over(VarsLayers below) {
        if (layer.isEmpty()) {
            return below;
        }
        return new VarsLayers() {
            @Override
            public Map<YamlValue, Path> origins() {
                Map<YamlValue, Path> all = new IdentityHashMap<>(below.origins());
                all.putAll(origins);
                return all;
            }

            @Override
            public List<Map<String, YamlValue>> groups(List<String> groups) {
                return below.groups(groups);
            }

            @Override
            public List<Map<String, YamlValue>> host(String host) {
                List<Map<String, YamlValue>> layers = new ArrayList<>(below.host(host));
                layers.add(layer);
                return layers;
            }
        };
    }
}
