package dev.fleetfix.transport.ssh;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.PublicKey;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import net.schmizz.sshj.common.Buffer;
import net.schmizz.sshj.common.KeyType;
import net.schmizz.sshj.transport.verification.OpenSSHKnownHosts;

/**
 * Checks host keys against one OpenSSH known_hosts file (plain and hashed {@code |1|} entries, via
 * SSHJ) and remembers why it refused a key, so the error can say which line to look at. With
 * accept-new, a host that has no entry yet is trusted and appended, as OpenSSH's
 * {@code StrictHostKeyChecking=accept-new} does; a key that differs from a recorded one is never
 * accepted.
 */
final class KnownHostsVerifier extends OpenSSHKnownHosts {

    /** Several hosts of a parallel run may append to the same file. */
    private static final Map<Path, Object> FILE_LOCKS = new ConcurrentHashMap<>();

    /** Why the last key was refused, or accepted as new. */
    sealed interface Outcome {}

    record Unknown(String hostEntry, String keyType, String fingerprint) implements Outcome {}

    record Changed(String hostEntry, String keyType, String fingerprint, int line) implements Outcome {}

    record AcceptedNew(String hostEntry, String keyType, String fingerprint) implements Outcome {}

    private final Path file;
    private final boolean acceptNew;
    private volatile Outcome outcome;

    private KnownHostsVerifier(Path file, boolean acceptNew) throws IOException {
        super(file.toFile());
        this.file = file;
        this.acceptNew = acceptNew;
    }

    static KnownHostsVerifier load(Path file, boolean acceptNew) {
        try {
            return new KnownHostsVerifier(file, acceptNew);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read known_hosts file " + file + ": " + e.getMessage(), e);
        }
    }

    Path file() {
        return file;
    }

    /** What happened at the last verification that did not simply match; null when nothing did. */
    Outcome outcome() {
        return outcome;
    }

    @Override
    protected boolean hostKeyUnverifiableAction(String hostEntry, PublicKey key) {
        String type = KeyType.fromKey(key).toString();
        String fingerprint = fingerprint(key);
        if (!acceptNew) {
            outcome = new Unknown(hostEntry, type, fingerprint);
            return false;
        }
        try {
            HostEntry entry = new HostEntry(null, hostEntry, KeyType.fromKey(key), key);
            append(entry.getLine());
            entries().add(entry);
        } catch (IOException e) {
            outcome = new Unknown(hostEntry, type, fingerprint);
            throw new UncheckedIOException("cannot record the host key in " + file + ": " + e.getMessage(), e);
        }
        outcome = new AcceptedNew(hostEntry, type, fingerprint);
        return true;
    }

    @Override
    protected boolean hostKeyChangedAction(String hostEntry, PublicKey key) {
        outcome = new Changed(hostEntry, KeyType.fromKey(key).toString(), fingerprint(key), lineOf(hostEntry, key));
        return false;
    }

    private void append(String line) throws IOException {
        synchronized (FILE_LOCKS.computeIfAbsent(file.toAbsolutePath().normalize(), p -> new Object())) {
            Path parent = file.toAbsolutePath().getParent();
            if (parent != null) {
                Files.createDirectories(parent);
            }
            String prefix = needsNewline() ? System.lineSeparator() : "";
            Files.writeString(
                    file,
                    prefix + line + System.lineSeparator(),
                    StandardCharsets.UTF_8,
                    StandardOpenOption.CREATE,
                    StandardOpenOption.APPEND);
        }
    }

    private boolean needsNewline() throws IOException {
        if (!Files.exists(file) || Files.size(file) == 0) {
            return false;
        }
        byte[] bytes = Files.readAllBytes(file);
        return bytes[bytes.length - 1] != '\n';
    }

    /** The 1-based line of the entry that holds another key of this type for the host, or 0. */
    private int lineOf(String hostEntry, PublicKey key) {
        List<String> lines;
        try {
            lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            return 0;
        }
        KeyType type = KeyType.fromKey(key);
        EntryFactory parser = new EntryFactory();
        for (int i = 0; i < lines.size(); i++) {
            try {
                KnownHostEntry entry = parser.parseEntry(lines.get(i));
                if (entry != null && entry.appliesTo(type, hostEntry) && !entry.verify(key)) {
                    return i + 1;
                }
            } catch (IOException | RuntimeException e) {
                // A line SSHJ cannot parse is skipped, as when the file was loaded.
            }
        }
        return 0;
    }

    /** OpenSSH's fingerprint form, {@code SHA256:...}, as {@code ssh-keygen -lf} prints it. */
    static String fingerprint(PublicKey key) {
        byte[] blob = new Buffer.PlainBuffer().putPublicKey(key).getCompactData();
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(blob);
            return "SHA256:" + Base64.getEncoder().withoutPadding().encodeToString(digest);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JVM", e);
        }
    }
}
