package dev.fleetfix.yaml;

import java.util.Objects;

/**
 * A scalar tagged {@code !vault}: Ansible Vault ciphertext, as {@code ansible-vault encrypt_string} writes it. It
 * is kept apart from strings so that no reader takes the ciphertext for the value: the reader that knows the vault
 * passwords decrypts it, or refuses it.
 *
 * @param envelope the envelope text, {@code $ANSIBLE_VAULT;1.1;AES256} and its hex lines
 */
public record VaultedText(String envelope) {
    /** The YAML tag Ansible gives inline vaulted values. */
    public static final String TAG = "!vault";

    public VaultedText {
        Objects.requireNonNull(envelope, "envelope");
    }

    @Override
    public String toString() {
        return TAG;
    }
}
