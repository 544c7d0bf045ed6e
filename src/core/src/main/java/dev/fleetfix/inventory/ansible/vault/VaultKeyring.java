package dev.fleetfix.inventory.ansible.vault;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The vault passwords of one run, in the order given, and the one place vault data is decrypted. For a 1.2
 * envelope the passwords whose label is its vault id are tried first, then the others, as Ansible does. Every
 * failure is an {@link VaultException} (exit 2, before any host is contacted) naming the vaulted file and line;
 * no message holds a password or a decrypted value.
 */
public final class VaultKeyring {
    private static final VaultKeyring NONE = new VaultKeyring(List.of());

    private final List<VaultPasswordSource> sources;
    private final Map<String, String> decrypted = new HashMap<>();

    public VaultKeyring(List<VaultPasswordSource> sources) {
        this.sources = List.copyOf(sources);
    }

    /** No password: vaulted data is refused, with the options that would give one. */
    public static VaultKeyring none() {
        return NONE;
    }

    public List<VaultPasswordSource> sources() {
        return sources;
    }

    /** {@code text} itself, or its plaintext when it is a whole vault-encrypted file. */
    public String reveal(Path file, String text) {
        return VaultEnvelope.isVault(text) ? decrypt(text, file, 1) : text;
    }

    /**
     * The plaintext of one envelope, found at {@code file:line}.
     *
     * @throws VaultException when no password is given, none matches, the envelope is malformed or the plaintext
     *     is not UTF-8 text
     */
    public synchronized String decrypt(String text, Path file, int line) {
        String known = decrypted.get(text);
        if (known != null) {
            return known;
        }
        VaultEnvelope envelope = VaultEnvelope.parse(text, file, line);
        if (sources.isEmpty()) {
            throw new VaultException(
                    file,
                    line,
                    "this is encrypted with ansible-vault and no vault password was given: pass"
                            + " --vault-password-file FILE or --vault-id [LABEL@]FILE (or set"
                            + " ANSIBLE_VAULT_PASSWORD_FILE, or vault_password_file in ansible.cfg)");
        }
        List<VaultPasswordSource> tried = ordered(envelope.label());
        for (VaultPasswordSource source : tried) {
            Optional<byte[]> plain = VaultCipher.decrypt(envelope, source.password());
            if (plain.isPresent()) {
                String value = utf8(plain.get(), envelope);
                decrypted.put(text, value);
                return value;
            }
        }
        throw new VaultException(mismatch(tried, envelope));
    }

    private List<VaultPasswordSource> ordered(Optional<String> label) {
        List<VaultPasswordSource> out = new ArrayList<>();
        label.ifPresent(l -> sources.stream().filter(s -> s.label().equals(l)).forEach(out::add));
        sources.stream().filter(s -> !out.contains(s)).forEach(out::add);
        return out;
    }

    private static String mismatch(List<VaultPasswordSource> tried, VaultEnvelope envelope) {
        String id = envelope.label().map(l -> " (vault id " + l + ")").orElse("");
        if (tried.size() == 1) {
            return "vault: the password from " + tried.get(0).describe() + " does not decrypt " + envelope.where() + id
                    + " (HMAC mismatch)";
        }
        List<String> from = tried.stream().map(VaultPasswordSource::describe).toList();
        return "vault: none of the " + tried.size() + " vault passwords (from " + String.join(", ", from)
                + ") decrypts " + envelope.where() + id + " (HMAC mismatch)";
    }

    private static String utf8(byte[] plain, VaultEnvelope envelope) {
        try {
            return StandardCharsets.UTF_8
                    .newDecoder()
                    .decode(ByteBuffer.wrap(plain))
                    .toString();
        } catch (CharacterCodingException e) {
            throw new VaultException(envelope.file(), envelope.line(), "the vault's plaintext is not UTF-8 text");
        }
    }
}
