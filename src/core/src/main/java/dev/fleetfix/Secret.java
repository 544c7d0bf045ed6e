package dev.fleetfix;

import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * A value that must never be printed: {@link #toString()} is redacted, only {@link #reveal()} gives it. An inline
 * {@code !vault} value is a secret that is decrypted when it is first revealed, not when it is read: a listing or a
 * run that does not use it needs no vault password, and one that does gets the vault's error, naming its place. A
 * value, once known (made, or decrypted), is known to {@link KnownSecrets}, so that it is scrubbed from every output
 * even when a peer says it back; one never revealed is never sent, so no peer can say it back.
 */
public final class Secret {
    private final Optional<String> envelope;
    private Supplier<String> decrypt;
    private String value;

    private Secret(String value, Optional<String> envelope, Supplier<String> decrypt) {
        this.value = value;
        this.envelope = envelope;
        this.decrypt = decrypt;
        if (value != null) {
            KnownSecrets.register(value);
        }
    }

    public static Secret of(String value) {
        return new Secret(Objects.requireNonNull(value, "value"), Optional.empty(), null);
    }

    /**
     * An inline vaulted value: its ciphertext, and how to decrypt it, once, when it is first revealed.
     *
     * @param decrypt throws an {@link InputException} naming the value's file and line when it cannot
     */
    public static Secret vaulted(String envelope, Supplier<String> decrypt) {
        return new Secret(null, Optional.of(envelope), Objects.requireNonNull(decrypt, "decrypt"));
    }

    /** The value; a vaulted one is decrypted now, the first time. */
    public synchronized String reveal() {
        if (value == null) {
            value = Objects.requireNonNull(decrypt.get(), "decrypted");
            decrypt = null;
            KnownSecrets.register(value);
        }
        return value;
    }

    /** The ciphertext of an inline {@code !vault} value, as written: what {@code ansible-inventory} prints for it. */
    public Optional<String> envelope() {
        return envelope;
    }

    @Override
    public String toString() {
        return "******";
    }

    /** Two vaulted secrets are equal when their ciphertexts are; neither is decrypted to compare. */
    @Override
    public boolean equals(Object o) {
        if (!(o instanceof Secret other) || envelope.isPresent() != other.envelope.isPresent()) {
            return false;
        }
        return envelope.isPresent() ? envelope.equals(other.envelope) : other.value.equals(value);
    }

    @Override
    public int hashCode() {
        return envelope.isPresent() ? envelope.hashCode() : value.hashCode();
    }
}
