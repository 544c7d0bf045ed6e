package dev.fleetfix.cli;

import dev.fleetfix.inventory.ansible.AnsibleEnvironment;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Option;

/**
 * Ansible Vault passwords ({@code @Mixin} of {@link InventoryOptions}, so of every command that reads an
 * inventory). As in Ansible, the vault ids of {@code vault_identity_list} / {@code ANSIBLE_VAULT_IDENTITY_LIST}
 * and {@code --vault-id} come first, then the password files of {@code --vault-password-file} and
 * {@code vault_password_file} / {@code ANSIBLE_VAULT_PASSWORD_FILE}; an envelope that names its vault id tries
 * that id's passwords first ({@link AnsibleEnvironment#keyring}). {@code -J} asks for the default vault id's
 * password on the terminal ({@link PromptOptions}); {@code --vault-id LABEL@prompt} is refused.
 */
public final class VaultOptions {
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
                    + " (repeatable; LABEL@prompt is refused: -J asks for the default id's). Also: vault_identity_list in"
                    + " ansible.cfg, ANSIBLE_VAULT_IDENTITY_LIST.")
    List<String> vaultIds = new ArrayList<>();
}
