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

    /**
     * What a reader makes of an inline vaulted value as the tree is built: the plaintext (a secret) for a reader that
     * knows the passwords, or an error for one that never decrypts.
     */
    @FunctionalInterface
    public interface Opener {
        /** Leaves the value vaulted. */
        Opener KEEP = (text, line, column) -> text;

        Object open(VaultedText text, int line, int column);
    }
}
