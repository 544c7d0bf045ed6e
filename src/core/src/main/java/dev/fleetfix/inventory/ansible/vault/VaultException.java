package dev.fleetfix.inventory.ansible.vault;

import dev.fleetfix.InputException;
import java.nio.file.Path;

/**
 * Vault data that cannot be read: no password, a wrong one, a malformed envelope, a password source that fails.
 * Bad input like any other (exit 2); its own type so that a reader trying one format after another does not take
 * it for "not this format".
 */
public final class VaultException extends InputException {
    VaultException(String message) {
        super(message);
    }

    VaultException(Path file, int line, String message) {
        super(file, line, 0, message);
    }
}
