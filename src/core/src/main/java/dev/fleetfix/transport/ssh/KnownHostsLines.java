package dev.fleetfix.transport.ssh;

import dev.fleetfix.SshHostPatterns;
import dev.fleetfix.transport.FileStamp;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.PublicKey;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import net.schmizz.sshj.common.Buffer;
import net.schmizz.sshj.common.KeyType;
import net.schmizz.sshj.transport.verification.OpenSSHKnownHosts.HostEntry;

/**
 * A known_hosts file as {@link KnownHostsVerifier} reads and writes it: its lines, parsed once per content for every
 * host of a run, which host each applies to (plain patterns and hashed names), and the line accept-new appends.
 */
final class KnownHostsLines {
    private KnownHostsLines() {}

    /** Far above any real known_hosts; a device or a runaway file must not fill the heap. */
    static final long MAX_BYTES = 16L * 1024 * 1024;

    /** Several hosts of a parallel run may append to the same file. */
    private static final Map<Path, Object> FILE_LOCKS = new ConcurrentHashMap<>();

    static final String REVOKED = "@revoked";
    static final String CERT_AUTHORITY = "@cert-authority";

    /** A hashed entry is one hashed name: OpenSSH has no list and no negation there. */
    private static final String HASHED = "|1|";

    /**
     * One line of the file as fleetfix reads it: its number, its marker ("" when none), its host patterns as
     * written, its key type and key. The key is decoded only when the line applies to a host being verified: decoding
     * checks the key (for ed25519 a point decompression and validation, a scalar multiplication), and a run of N
     * hosts against a file of M lines decoded N*M keys, or M per host connecting at once, most of a short audit's
     * known_hosts time; now each host decodes the lines that name it, once per run.
     */
    static final class Line {
        private final int number;
        private final String marker;
        private final String hosts;
        private final KeyType type;
        private final byte[] key;
        /** A hashed line's matcher (SSHJ's HMAC of the name), made without the key; null for patterns. */
        private final HostEntry hashed;

        /** Whether the key decodes, once asked; OpenSSH skips a line whose key it cannot read, and so does this. */
        private volatile Boolean decodes;

        Line(int number, String marker, String hosts, KeyType type, byte[] key, HostEntry hashed) {
            this.number = number;
            this.marker = marker;
            this.hosts = hosts;
            this.type = type;
            this.key = key;
            this.hashed = hashed;
        }

        /** A line for a key known to decode (one accept-new just recorded). */
        static Line decoded(String hosts, PublicKey key) {
            Line line = new Line(0, "", hosts, KeyType.fromKey(key), blob(key), null);
            line.decodes = true;
            return line;
        }

        int number() {
            return number;
        }

        String marker() {
            return marker;
        }

        KeyType type() {
            return type;
        }

        byte[] key() {
            return key;
        }

        /** Whether the line names {@code host} ({@code [10.0.0.1]:2222} on a port other than 22). */
        boolean appliesTo(String host) {
            if (hashed == null) {
                return SshHostPatterns.matches(hosts, host);
            }
            try {
                // lines are shared by the verifiers of every host; a hashed entry's matcher keeps one HMAC
                synchronized (hashed) {
                    return hashed.appliesTo(host);
                }
            } catch (IOException e) {
                return false;
            }
        }

        /** Whether the line holds a key of {@code type} and names {@code host}. */
        boolean appliesTo(KeyType type, String host) {
            return this.type == type && appliesTo(host);
        }

        boolean decodes() {
            Boolean known = decodes;
            if (known == null) {
                DECODES.incrementAndGet();
                known = decode(key).isPresent();
                decodes = known;
            }
            return known;
        }
    }

    /** A key in SSH's wire form, checked as SSHJ reads it; empty when it is none (OpenSSH skips such a line). */
    static Optional<PublicKey> decode(byte[] key) {
        try {
            return Optional.of(new Buffer.PlainBuffer(key).readPublicKey());
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }

    /**
     * A file's lines as parsed at one {@link FileStamp}: its size and modification time, which a user can set back
     * after editing the file in place, and its change time and file key (inode), which no user can. Without a change
     * time (another file system), nothing is cached.
     */
    private record Parsed(FileStamp stamp, List<Line> lines) {}

    /**
     * Every host of a run builds its own verifier from the same file, and parsing a line decodes its key (for
     * ed25519 a point decompression): a verifier per host that parsed the whole file made an audit of N hosts
     * decode N^2 keys, a large share of its CPU at a few hundred hosts (the profile in
     * docs/performance.md#at-scale-20-to-500-hosts). So a file is parsed once per content, known by its size
     * and modification time (an append by accept-new changes both).
     */
    private static final Map<Path, Parsed> PARSED = new ConcurrentHashMap<>();

    /** How many times a known_hosts file was parsed in this process: for tests. */
    static final AtomicLong PARSES = new AtomicLong();

    /** How many keys of known_hosts lines were decoded in this process: for tests. */
    static final AtomicLong DECODES = new AtomicLong();

    /**
     * The lines of {@code file}, none when it does not exist yet.
     *
     * @throws IOException when it is not a regular file, is larger than {@link #MAX_BYTES} or cannot be read
     */
    static List<Line> read(Path file) throws IOException {
        if (!Files.exists(file)) {
            return List.of();
        }
        if (!Files.isRegularFile(file)) {
            throw new IOException("not a regular file");
        }
        if (Files.size(file) > MAX_BYTES) {
            throw new IOException("larger than " + MAX_BYTES / (1024 * 1024) + " MB");
        }
        return parsed(file);
    }

    private static List<Line> parsed(Path file) throws IOException {
        Path key = file.toAbsolutePath().normalize();
        Optional<FileStamp> stamp = FileStamp.of(key);
        Parsed cached = PARSED.get(key);
        if (cached != null && stamp.isPresent() && cached.stamp().equals(stamp.get())) {
            return cached.lines();
        }
        PARSES.incrementAndGet();
        List<String> text = Files.readAllLines(key, StandardCharsets.UTF_8);
        List<Line> lines = new ArrayList<>();
        for (int i = 0; i < text.size(); i++) {
            parse(i + 1, text.get(i)).ifPresent(lines::add);
        }
        List<Line> result = List.copyOf(lines);
        stamp.ifPresentOrElse(st -> PARSED.put(key, new Parsed(st, result)), () -> PARSED.remove(key));
        return result;
    }

    /**
     * A line's fields, as OpenSSH reads them: {@code [@marker] hosts keytype base64 [comment]}. A comment, a short
     * line, a key type SSHJ does not know, a key that is not base64 or a hashed name that is not OpenSSH's form is
     * skipped, as OpenSSH skips it; a key that does not decode is skipped when a host asks for it.
     */
    private static Optional<Line> parse(int number, String text) {
        String[] words = text.strip().split("\\s+");
        if (words.length < 3 || words[0].startsWith("#")) {
            return Optional.empty();
        }
        String marker = words[0].startsWith("@") ? words[0].toLowerCase(Locale.ROOT) : "";
        int keyAt = marker.isEmpty() ? 2 : 3;
        if (words.length <= keyAt || (!marker.isEmpty() && !marker.equals(REVOKED) && !marker.equals(CERT_AUTHORITY))) {
            return Optional.empty();
        }
        String hosts = words[keyAt - 2];
        KeyType type = KeyType.fromString(words[keyAt - 1]);
        if (type == KeyType.UNKNOWN) {
            return Optional.empty();
        }
        try {
            byte[] key = Base64.getDecoder().decode(words[keyAt]);
            HostEntry hashed = hosts.startsWith(HASHED) ? new HostEntry(null, hosts, type, null) : null;
            return Optional.of(new Line(number, marker, hosts, type, key, hashed));
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }

    /** Appends {@code line} to the file (made if missing), on a line of its own. */
    static void append(Path file, String line) throws IOException {
        synchronized (FILE_LOCKS.computeIfAbsent(file.toAbsolutePath().normalize(), p -> new Object())) {
            Path parent = file.toAbsolutePath().getParent();
            if (parent != null) {
                Files.createDirectories(parent);
            }
            String prefix = needsNewline(file) ? System.lineSeparator() : "";
            Files.writeString(
                    file,
                    prefix + line + System.lineSeparator(),
                    StandardCharsets.UTF_8,
                    StandardOpenOption.CREATE,
                    StandardOpenOption.APPEND);
        }
    }

    private static boolean needsNewline(Path file) throws IOException {
        if (!Files.exists(file) || Files.size(file) == 0) {
            return false;
        }
        byte[] bytes = Files.readAllBytes(file);
        return bytes[bytes.length - 1] != '\n';
    }

    /** A key as a known_hosts line holds it, before base64. */
    static byte[] blob(PublicKey key) {
        return new Buffer.PlainBuffer().putPublicKey(key).getCompactData();
    }
}
