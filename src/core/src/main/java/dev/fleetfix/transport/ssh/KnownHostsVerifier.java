package dev.fleetfix.transport.ssh;

import com.hierynomus.sshj.userauth.certificate.Certificate;
import dev.fleetfix.transport.ssh.KnownHostsLines.Line;
import java.io.IOException;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.PublicKey;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import net.schmizz.sshj.common.Buffer;
import net.schmizz.sshj.common.KeyType;
import net.schmizz.sshj.transport.verification.OpenSSHKnownHosts;

/**
 * Checks host keys against one OpenSSH known_hosts file (plain and hashed {@code |1|} entries, via
 * SSHJ) and remembers why it refused a key, so the error can say which line to look at. With
 * accept-new, a host that has no entry yet is trusted and appended, as OpenSSH's
 * {@code StrictHostKeyChecking=accept-new} does; a key that differs from a recorded one is never
 * accepted.
 *
 * <p>Where SSHJ's own check differs from OpenSSH's, OpenSSH's is followed: a key on a
 * {@code @revoked} line is refused even when another line lists it plainly; a host certificate is verified against
 * the {@code @cert-authority} lines for the host (see {@link #verifyCertificate}); a host covered by a
 * {@code @cert-authority} line that offers a plain key not listed is refused with its own reason, not called
 * "changed"; a negated pattern ({@code 10.0.0.*,!10.0.0.66}) that matches
 * takes the host out of the line, whatever else on it matches; and the host key algorithms of the recorded keys are asked
 * for first, RSA as {@code rsa-sha2-512}/{@code rsa-sha2-256} too, so that a host recorded with its
 * RSA key is not met with its ed25519 key instead.
 */
final class KnownHostsVerifier extends OpenSSHKnownHosts {

    /** Several hosts of a parallel run may append to the same file. */
    private static final Map<Path, Object> FILE_LOCKS = new ConcurrentHashMap<>();

    /** Why the last key was refused, or accepted as new. */
    sealed interface Outcome {}

    record Unknown(String hostEntry, String keyType, String fingerprint) implements Outcome {}

    record Changed(String hostEntry, String keyType, String fingerprint, int line) implements Outcome {}

    record AcceptedNew(String hostEntry, String keyType, String fingerprint) implements Outcome {}

    record Revoked(String hostEntry, String keyType, String fingerprint, int line) implements Outcome {}

    /** The host is covered by a {@code @cert-authority} line only; its plain key is listed nowhere. */
    record CertAuthority(String hostEntry, String keyType, String fingerprint, int line) implements Outcome {}

    /**
     * The host offered a certificate signed by a CA that no {@code @cert-authority} line for it trusts, and its plain
     * key is listed nowhere either.
     *
     * @param line a {@code @cert-authority} line for the host that trusts another CA, or 0
     */
    record UntrustedCertificate(String hostEntry, String certType, String caFingerprint, int line) implements Outcome {}

    /** A CA that a {@code @cert-authority} line trusts signed the host's certificate, which OpenSSH would refuse. */
    record CertificateRefused(String hostEntry, String certType, String caFingerprint, int line, String reason)
            implements Outcome {}

    /** The CA that signed the host's certificate is on a {@code @revoked} line. */
    record RevokedAuthority(String hostEntry, String keyType, String fingerprint, int line) implements Outcome {}

    /**
     * The host certificate algorithms SSHJ negotiates, best first. OpenSSH's sshd offers no RSA certificate with
     * SHA-1 signatures since 8.8, and SSHJ knows no other RSA certificate algorithm: an RSA host certificate is not
     * negotiated, and its host is verified by its plain key.
     */
    private static final List<String> CERTIFICATE_ALGORITHMS = List.of(
            KeyType.ED25519_CERT.toString(),
            KeyType.ECDSA521_CERT.toString(),
            KeyType.ECDSA384_CERT.toString(),
            KeyType.ECDSA256_CERT.toString(),
            KeyType.RSA_CERT.toString());

    private static final String REVOKED = KnownHostsLines.REVOKED;
    private static final String CERT_AUTHORITY = KnownHostsLines.CERT_AUTHORITY;
    private static final String HASHED = KnownHostsLines.HASHED;

    private final Path file;
    private final boolean acceptNew;
    private final Clock clock;
    private final List<Line> lines = new CopyOnWriteArrayList<>();
    private volatile Outcome outcome;

    private KnownHostsVerifier(Path file, boolean acceptNew, Clock clock) throws IOException {
        // SSHJ's own parse of the file is not used: verify() and findExistingAlgorithms() read this class's lines
        super(new StringReader(""));
        this.file = file;
        this.acceptNew = acceptNew;
        this.clock = clock;
        if (Files.exists(file)) {
            lines.addAll(KnownHostsLines.parsed(file));
        }
    }

    /** SSHJ's and OpenSSH's form of a host on a port other than 22: {@code [10.0.0.1]:2222}. */
    private static String hostEntry(String hostname, int port) {
        String lower = hostname.toLowerCase(Locale.ROOT);
        return port != 22 ? "[" + lower + "]:" + port : lower;
    }

    @Override
    public boolean verify(String hostname, int port, PublicKey key) {
        KeyType type = KeyType.fromKey(key);
        String host = hostEntry(hostname, port);
        if (type == KeyType.UNKNOWN) {
            return false;
        }
        if (key instanceof Certificate<?> cert) {
            return verifyCertificate(hostname, port, cert);
        }
        byte[] blob = blob(key);
        for (Line line : lines) {
            if (line.marker().equals(REVOKED)
                    && applies(line, host)
                    && Arrays.equals(line.key(), blob)
                    && line.decodes()) {
                outcome = new Revoked(host, type.toString(), fingerprint(key), line.number());
                return false;
            }
        }
        boolean known = false;
        for (Line line : lines) {
            if (line.marker().isEmpty() && applies(line, type, host) && line.decodes()) {
                known = true;
                if (Arrays.equals(line.key(), blob)) {
                    return true;
                }
            }
        }
        if (!known) {
            for (Line line : lines) {
                if (line.marker().equals(CERT_AUTHORITY) && applies(line, host) && line.decodes()) {
                    outcome = new CertAuthority(host, type.toString(), fingerprint(key), line.number());
                    return false;
                }
            }
        }
        return known ? hostKeyChangedAction(host, key) : hostKeyUnverifiableAction(host, key);
    }

    /**
     * A host certificate, as OpenSSH's check_host_key takes it: refused when its key or its CA is on a
     * {@code @revoked} line for the host; checked ({@link HostCertificate}) when a {@code @cert-authority} line for
     * the host names its CA; else its plain key is verified as any key is (listed, unknown, accept-new).
     *
     * <p>Where a trusted CA signed a certificate that fails a check (expired, another principal), OpenSSH retries
     * with the plain key and, under accept-new, records it; fleetfix then logs in only when the plain key is already
     * listed for the host, and never records it: a certificate the fleet's CA made for another host, or one that
     * expired, is the case certificates exist to catch.
     */
    private boolean verifyCertificate(String hostname, int port, Certificate<?> cert) {
        String host = hostEntry(hostname, port);
        String certType = KeyType.fromKey(cert).toString();
        PublicKey plain = cert.getKey();
        byte[] plainBlob = blob(plain);
        byte[] caBlob = cert.getSignatureKey();
        Optional<PublicKey> ca = decode(caBlob);
        String caFingerprint = ca.map(KnownHostsVerifier::fingerprint).orElse("(a key fleetfix cannot read)");
        for (Line line : lines) {
            if (line.marker().equals(REVOKED) && applies(line, host) && line.decodes()) {
                if (Arrays.equals(line.key(), plainBlob)) {
                    outcome = new Revoked(host, KeyType.fromKey(plain).toString(), fingerprint(plain), line.number());
                    return false;
                }
                if (Arrays.equals(line.key(), caBlob) && ca.isPresent()) {
                    outcome = new RevokedAuthority(
                            host, KeyType.fromKey(ca.get()).toString(), caFingerprint, line.number());
                    return false;
                }
            }
        }
        int otherCa = 0;
        for (Line line : lines) {
            if (!line.marker().equals(CERT_AUTHORITY) || !applies(line, host) || !line.decodes()) {
                continue;
            }
            if (!Arrays.equals(line.key(), caBlob)) {
                otherCa = otherCa == 0 ? line.number() : otherCa;
                continue;
            }
            Optional<String> problem = HostCertificate.problem(cert, hostname, clock.instant());
            if (problem.isEmpty()) {
                return true;
            }
            if (listedPlainly(host, plain)) {
                return true;
            }
            outcome = new CertificateRefused(host, certType, caFingerprint, line.number(), problem.get());
            return false;
        }
        boolean verified = verify(hostname, port, plain);
        if (!verified && (outcome instanceof Unknown || outcome instanceof CertAuthority)) {
            outcome = new UntrustedCertificate(host, certType, caFingerprint, otherCa);
        }
        return verified;
    }

    /** Whether a plain line for the host lists this very key. */
    private boolean listedPlainly(String host, PublicKey key) {
        KeyType type = KeyType.fromKey(key);
        byte[] blob = blob(key);
        for (Line line : lines) {
            if (line.marker().isEmpty()
                    && applies(line, type, host)
                    && Arrays.equals(line.key(), blob)
                    && line.decodes()) {
                return true;
            }
        }
        return false;
    }

    private static Optional<PublicKey> decode(byte[] key) {
        try {
            return Optional.of(new Buffer.PlainBuffer(key).readPublicKey());
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }

    /**
     * The algorithms of the keys recorded for the host, which SSHJ asks the server for first. An
     * RSA key is verified with rsa-sha2-512 or rsa-sha2-256 signatures: SSHJ alone would ask only for
     * ssh-rsa, which OpenSSH 8.8 and later refuse, and get another key type that is not recorded.
     */
    @Override
    public List<String> findExistingAlgorithms(String hostname, int port) {
        String host = hostEntry(hostname, port);
        List<String> algorithms = new ArrayList<>();
        for (Line line : lines) {
            if (line.marker().equals(CERT_AUTHORITY)
                    && applies(line, host)
                    && line.decodes()
                    && !algorithms.containsAll(CERTIFICATE_ALGORITHMS)) {
                // the host key's type is not known from a CA line: every certificate type SSHJ takes, first, so
                // that a host with a certificate offers it (OpenSSH orders its algorithms so too)
                algorithms.addAll(CERTIFICATE_ALGORITHMS);
            }
        }
        for (Line line : lines) {
            if (line.marker().isEmpty() && applies(line, host) && line.decodes()) {
                KeyType type = line.type();
                if (type == KeyType.RSA) {
                    algorithms.addAll(List.of("rsa-sha2-512", "rsa-sha2-256", "ssh-rsa"));
                } else {
                    algorithms.add(type.toString());
                }
            }
        }
        return algorithms;
    }

    private static boolean applies(Line line, String host) {
        if (!line.hosts().startsWith(HASHED)) {
            return matchesPatternList(line.hosts(), host);
        }
        try {
            // lines are shared by the verifiers of every host; a hashed entry's matcher keeps one HMAC
            synchronized (line.hashed()) {
                return line.hashed().appliesTo(host);
            }
        } catch (IOException e) {
            return false;
        }
    }

    /**
     * OpenSSH's match_hostname over a line's comma-separated patterns: a negated pattern that matches makes the
     * whole line not apply, whatever positive pattern matched too. SSHJ's matcher reads "!x" as "any host but x"
     * and ORs it with the others, so "10.0.0.*,!10.0.0.66" applied to 10.0.0.66, and a lone "!x" to every host.
     */
    static boolean matchesPatternList(String patterns, String host) {
        boolean positive = false;
        for (String pattern : patterns.toLowerCase(Locale.ROOT).split(",", -1)) {
            boolean negated = pattern.startsWith("!");
            if (globMatches(negated ? pattern.substring(1) : pattern, host)) {
                if (negated) {
                    return false;
                }
                positive = true;
            }
        }
        return positive;
    }

    /** OpenSSH's match_pattern: {@code *} any run of characters, {@code ?} one character, the rest literal. */
    static boolean globMatches(String pattern, String text) {
        int p = 0;
        int t = 0;
        int starAt = -1;
        int textAtStar = 0;
        while (t < text.length()) {
            if (p < pattern.length() && (pattern.charAt(p) == '?' || pattern.charAt(p) == text.charAt(t))) {
                p++;
                t++;
            } else if (p < pattern.length() && pattern.charAt(p) == '*') {
                starAt = p++;
                textAtStar = t;
            } else if (starAt >= 0) {
                p = starAt + 1;
                t = ++textAtStar;
            } else {
                return false;
            }
        }
        while (p < pattern.length() && pattern.charAt(p) == '*') {
            p++;
        }
        return p == pattern.length();
    }

    private static boolean applies(Line line, KeyType type, String host) {
        return line.type() == type && applies(line, host);
    }

    static byte[] blob(PublicKey key) {
        return new Buffer.PlainBuffer().putPublicKey(key).getCompactData();
    }

    /** Far above any real known_hosts; a device or a runaway file must not fill the heap. */
    static final long MAX_BYTES = 16L * 1024 * 1024;

    static KnownHostsVerifier load(Path file, boolean acceptNew) {
        return load(file, acceptNew, Clock.systemUTC());
    }

    /** A verifier whose host certificates are checked against {@code clock}. */
    static KnownHostsVerifier load(Path file, boolean acceptNew, Clock clock) {
        if (Files.exists(file)) {
            try {
                if (!Files.isRegularFile(file)) {
                    throw new IOException("not a regular file");
                }
                if (Files.size(file) > MAX_BYTES) {
                    throw new IOException("larger than " + MAX_BYTES / (1024 * 1024) + " MB");
                }
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read known_hosts file " + file + ": " + e.getMessage(), e);
            }
        }
        try {
            return new KnownHostsVerifier(file, acceptNew, clock);
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
            lines.add(Line.decoded(hostEntry, key));
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
        KeyType type = KeyType.fromKey(key);
        byte[] blob = blob(key);
        for (Line line : lines) {
            if (line.number() > 0
                    && line.marker().isEmpty()
                    && applies(line, type, hostEntry)
                    && !Arrays.equals(line.key(), blob)
                    && line.decodes()) {
                return line.number();
            }
        }
        return 0;
    }

    /** OpenSSH's fingerprint form, {@code SHA256:...}, as {@code ssh-keygen -lf} prints it. */
    static String fingerprint(PublicKey key) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(blob(key));
            return "SHA256:" + Base64.getEncoder().withoutPadding().encodeToString(digest);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JVM", e);
        }
    }
}
