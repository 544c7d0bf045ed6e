package dev.fleetfix.inventory.ansible;

import dev.fleetfix.Secret;
import dev.fleetfix.inventory.ansible.vault.VaultEnvelope;
import dev.fleetfix.inventory.ansible.vault.VaultKeyring;
import dev.fleetfix.yaml.LocatedYaml;
import dev.fleetfix.yaml.YamlValue;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;

/** Reads the YAML files of an inventory (inventories, group_vars, host_vars, extra vars) with their vault. */
final class InventoryYaml {
    private InventoryYaml() {}

    /** Reads the one document of a YAML file; empty when it holds no document or only null. */
    static Optional<YamlValue> read(Path file) {
        return read(file, warning -> {}, VaultKeyring.none());
    }

    /**
     * Reads the one document of a YAML file through {@link LocatedYaml}, which bounds its size, resolves aliases and
     * merge keys, and keeps the last value of a key written twice, telling {@code warnings}. A vault-encrypted file
     * is decrypted with {@code vault}'s passwords; without one it is refused, naming file and line. Each {@code
     * !vault} value is a secret decrypted when first revealed.
     */
    static Optional<YamlValue> read(Path file, Consumer<String> warnings, VaultKeyring vault) {
        return parse(file, vault.reveal(file, LocatedYaml.readText(file, "inventory")), warnings, vault);
    }

    /**
     * Reads a variables file (group_vars, host_vars, {@code -e @FILE}): as {@link #read}, and when the whole file is
     * vault-encrypted every value in it is a secret, exactly as an inline {@code !vault} value is (masked in
     * listings, never spliced into text); mappings and lists keep their shape, their leaves become secrets.
     *
     * @param what what the file is, for the size limit's message
     * @throws dev.fleetfix.inventory.ansible.vault.VaultException when the file is encrypted and cannot be decrypted
     */
    static Optional<YamlValue> readVariables(Path file, String what, Consumer<String> warnings, VaultKeyring vault) {
        String text = LocatedYaml.readText(file, what);
        if (!VaultEnvelope.isVault(text)) {
            return parse(file, text, warnings, vault);
        }
        return parse(file, vault.reveal(file, text), warnings, vault).map(InventoryYaml::secretLeaves);
    }

    /** Every scalar of {@code node} as a secret of a vaulted file ({@link Secret#ofVaultedFile}), shapes and places kept. */
    static YamlValue secretLeaves(YamlValue node) {
        if (node instanceof YamlValue.Mapping mapping) {
            Map<String, YamlValue.Entry> out = new LinkedHashMap<>();
            mapping.fields()
                    .forEach((key, entry) -> out.put(
                            key,
                            new YamlValue.Entry(
                                    key, entry.line(), entry.column(), secretLeaves(entry.value()), entry.textKey())));
            return new YamlValue.Mapping(out, node.line(), node.column());
        }
        if (node instanceof YamlValue.Sequence sequence) {
            List<YamlValue> out = new ArrayList<>();
            sequence.items().forEach(item -> out.add(secretLeaves(item)));
            return new YamlValue.Sequence(out, node.line(), node.column());
        }
        Object value = node.value();
        if (value == null || value instanceof Secret) {
            return node;
        }
        return new YamlValue.Scalar(Secret.ofVaultedFile(String.valueOf(value)), node.line(), node.column());
    }

    /**
     * Parses {@code text}, read from {@code file}. An inline {@code !vault} value is a secret whatever its name:
     * listings show it as {@code ansible-inventory} does, and it is decrypted only when a run reveals it.
     */
    static Optional<YamlValue> parse(Path file, String text, Consumer<String> warnings, VaultKeyring vault) {
        return LocatedYaml.parse(
                file,
                text,
                warnings,
                (vaulted, line, column) ->
                        Secret.vaulted(vaulted.envelope(), () -> vault.decrypt(vaulted.envelope(), file, line)));
    }
}
