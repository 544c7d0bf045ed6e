package dev.fleetfix.inventory;

import dev.fleetfix.Secret;
import dev.fleetfix.inventory.vault.VaultKeyring;
import dev.fleetfix.yaml.LocatedYaml;
import dev.fleetfix.yaml.YamlValue;
import java.nio.file.Path;
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
     * merge keys, and keeps the last value of a key written twice, telling {@code warnings}. A vault-encrypted file,
     * and each {@code !vault} value, is decrypted with {@code vault}'s passwords; without one it is refused, naming
     * file and line.
     */
    static Optional<YamlValue> read(Path file, Consumer<String> warnings, VaultKeyring vault) {
        return parse(file, vault.reveal(file, LocatedYaml.readText(file, "inventory")), warnings, vault);
    }

    /**
     * Parses {@code text}, read from {@code file}. An inline {@code !vault} value is a secret whatever its name:
     * listings show "******".
     */
    static Optional<YamlValue> parse(Path file, String text, Consumer<String> warnings, VaultKeyring vault) {
        return LocatedYaml.parse(
                file,
                text,
                warnings,
                (vaulted, line, column) -> Secret.of(vault.decrypt(vaulted.envelope(), file, line)));
    }
}
