package dev.fleetfix.cli;

import dev.fleetfix.inventory.AnsibleConfig;
import dev.fleetfix.inventory.vault.VaultKeyring;
import dev.fleetfix.inventory.vault.VaultPasswordSource;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Option;

/**
 * Ansible Vault passwords ({@code @Mixin} of {@link InventoryOptions}, so of every command that reads an
 * inventory). As in Ansible, the vault ids of {@code vault_identity_list} / {@code ANSIBLE_VAULT_IDENTITY_LIST}
 * and {@code --vault-id} come first, then the password files of {@code --vault-password-file} and
 * {@code vault_password_file} / {@code ANSIBLE_VAULT_PASSWORD_FILE}; an envelope that names its vault id tries
 * that id's passwords first. fleetfix never prompts: {@code --vault-id prompt} is refused.
 */
public final class VaultOptions {
    private static final String IDENTITY_LIST = "defaults.vault_identity_list";
    private static final String PASSWORD_FILE = "defaults.vault_password_file";

    @Option(
            names = {"--vault-password-file", "--vault-pass-file"},
            paramLabel = "FILE",
            description = "Vault password: a file holding it, or an executable that prints it (repeatable)."
                    + " Default: ansible.cfg's vault_password_file, or ANSIBLE_VAULT_PASSWORD_FILE.")
    List<Path> passwordFiles = new ArrayList<>();

    @Option(
            names = "--vault-id",
            paramLabel = "[LABEL@]FILE",
            description = "Vault password for vault id LABEL (default: 'default'), from a file or an executable"
                    + " (repeatable; prompt is refused: fleetfix never asks). Also: vault_identity_list in"
                    + " ansible.cfg, ANSIBLE_VAULT_IDENTITY_LIST.")
    List<String> vaultIds = new ArrayList<>();

    private VaultKeyring keyring;

    /** The run's vault passwords, read lazily: a file is read (a script run) only when a vault needs it. */
    VaultKeyring keyring(AnsibleSettings settings) {
        if (keyring == null) {
            keyring = new VaultKeyring(sources(settings.config()));
        }
        return keyring;
    }

    private List<VaultPasswordSource> sources(AnsibleConfig config) {
        List<VaultPasswordSource> out = new ArrayList<>();
        config.get(IDENTITY_LIST).ifPresent(list -> {
            for (String id : list.split(",")) {
                if (!id.isBlank()) {
                    out.add(VaultPasswordSource.ofVaultId(id.strip(), config.origin(IDENTITY_LIST)));
                }
            }
        });
        vaultIds.forEach(id -> out.add(VaultPasswordSource.ofVaultId(id, "--vault-id")));
        passwordFiles.forEach(file ->
                out.add(new VaultPasswordSource(VaultPasswordSource.DEFAULT_LABEL, file, "--vault-password-file")));
        config.path(PASSWORD_FILE)
                .ifPresent(file -> out.add(new VaultPasswordSource(
                        VaultPasswordSource.DEFAULT_LABEL, file, config.origin(PASSWORD_FILE))));
        return out;
    }
}
