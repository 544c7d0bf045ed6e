package dev.fleetfix.inventory.ansible;

import dev.fleetfix.Secret;
import io.soabase.recordbuilder.core.RecordBuilder;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * What a command line says of the inventory, {@code --limit} apart: the sources and how to read them, the variables
 * above every other, the connection defaults and the vault passwords. {@link InventoryService} reads it.
 *
 * @param sources {@code -i}, in order: files, directories, scripts, host lists {@code a,b,}; empty for ansible.cfg's
 *     inventory, else the implicit localhost
 * @param fromAnsible {@code --inventory-from-ansible}: what {@code ansible-inventory --list} prints of the sources
 * @param extraVars {@code -e}, in order: {@code k=v} words, a JSON or YAML mapping, or {@code @FILE}
 * @param user {@code -u}: the SSH user of hosts whose inventory sets none
 * @param privateKey {@code --private-key}: the key of hosts whose inventory sets none
 * @param become {@code -b}: sudo on hosts whose inventory does not set {@code ansible_become}
 * @param becomeUser {@code --become-user}: only root is accepted
 * @param vaultIds {@code --vault-id [LABEL@]FILE}
 * @param vaultPasswordFiles {@code --vault-password-file}
 * @param becomePassword {@code -K}: the become password of hosts whose inventory sets none
 * @param vaultPassword {@code -J}: the password of Ansible's default vault id, asked for on the terminal
 */
@RecordBuilder
public record InventoryInput(
        List<Path> sources,
        boolean fromAnsible,
        List<String> extraVars,
        Optional<String> user,
        Optional<Path> privateKey,
        boolean become,
        Optional<String> becomeUser,
        List<String> vaultIds,
        List<Path> vaultPasswordFiles,
        Optional<Secret> becomePassword,
        Optional<Secret> vaultPassword)
        implements InventoryInputBuilder.With {

    public InventoryInput {
        sources = List.copyOf(sources);
        extraVars = List.copyOf(extraVars);
        Objects.requireNonNull(user, "user");
        Objects.requireNonNull(privateKey, "privateKey");
        Objects.requireNonNull(becomeUser, "becomeUser");
        vaultIds = List.copyOf(vaultIds);
        vaultPasswordFiles = List.copyOf(vaultPasswordFiles);
        Objects.requireNonNull(becomePassword, "becomePassword");
        Objects.requireNonNull(vaultPassword, "vaultPassword");
    }
}
