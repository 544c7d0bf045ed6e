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
 *
 * <p>A value of a vault-encrypted file is a secret by where it was read, not by what it is: operators encrypt a whole
 * {@code group_vars} file of ports, users and passwords together. It is hidden in listings like any secret, but it
 * is known to {@link KnownSecrets} only once a run uses it as a secret ({@link #reveal()}); used as a setting that
 * fleetfix prints ({@link #revealAsSetting()}: a port, a user, an address), it is not scrubbed, as Ansible prints
 * it. Were it scrubbed, a vaulted {@code redis_port: 6390} would mask every {@code 6390} of every output.
 */
public final class Secret {
    private final Optional<String> envelope;
    private Supplier<String> decrypt;
    private String value;
    private boolean known;

    private Secret(String value, Optional<String> envelope, Supplier<String> decrypt) {
        this.value = value;
        this.envelope = envelope;
        this.decrypt = decrypt;
    }

    /** A value known to be a secret: it is known to {@link KnownSecrets} from now on. */
    public static Secret of(String value) {
        Secret secret = new Secret(Objects.requireNonNull(value, "value"), Optional.empty(), null);
        secret.know();
        return secret;
    }

    /**
     * A value of a vault-encrypted file: hidden like any secret, and known to {@link KnownSecrets} when it is first
     * {@linkplain #reveal() revealed} as one.
     */
    public static Secret ofVaultedFile(String value) {
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

    /** The value, for a use as a secret; a vaulted one is decrypted now, the first time. */
    public synchronized String reveal() {
        decrypted();
        know();
        return value;
    }

    /**
     * The value, for a use as a setting that fleetfix prints (a port, a user, an address, a unit). An inline
     * {@code !vault} value, encrypted on its own, stays a secret whatever its use; a value of a vault-encrypted file
     * is scrubbed from outputs only if some use reveals it as a secret.
     */
    public synchronized String revealAsSetting() {
        decrypted();
        if (envelope.isPresent()) {
            know();
        }
        return value;
    }

    private void decrypted() {
        if (value == null) {
            value = Objects.requireNonNull(decrypt.get(), "decrypted");
            decrypt = null;
        }
    }

    private void know() {
        if (!known) {
            KnownSecrets.register(value);
            known = true;
        }
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
