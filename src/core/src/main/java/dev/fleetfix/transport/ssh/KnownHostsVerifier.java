package dev.fleetfix.transport.ssh;

import static dev.fleetfix.transport.ssh.KnownHostsLines.blob;

import com.hierynomus.sshj.userauth.certificate.Certificate;
import dev.fleetfix.transport.ssh.KnownHostsLines.Line;
import java.io.IOException;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.PublicKey;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Stream;
import net.schmizz.sshj.common.KeyType;
import net.schmizz.sshj.transport.verification.OpenSSHKnownHosts;

/**
 * Checks host keys against one OpenSSH known_hosts file (its lines read by {@link KnownHostsLines}) and remembers
 * why it refused a key, so the error can say which line to look at. With
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

    private final Path file;
    private final boolean acceptNew;
    private final Clock clock;
    private final List<Line> lines;
    private volatile Outcome outcome;

    private KnownHostsVerifier(Path file, boolean acceptNew, Clock clock, List<Line> lines) throws IOException {
        // SSHJ's own parse of the file is not used: verify() and findExistingAlgorithms() read this class's lines
        super(new StringReader(""));
        this.file = file;
        this.acceptNew = acceptNew;
        this.clock = clock;
        this.lines = new CopyOnWriteArrayList<>(lines);
    }

    /** SSHJ's and OpenSSH's form of a host on a port other than 22: {@code [10.0.0.1]:2222}. */
    private static String hostEntry(String hostname, int port) {
        String lower = hostname.toLowerCase(Locale.ROOT);
        return port != 22 ? "[" + lower + "]:" + port : lower;
    }

    @Override
    public boolean verify(String hostname, int port, PublicKey key) {
        KeyType type = KeyType.fromKey(key);
        if (type == KeyType.UNKNOWN) {
            return false;
        }
        if (key instanceof Certificate<?> cert) {
            return verifyCertificate(hostname, port, cert);
        }
        String host = hostEntry(hostname, port);
        byte[] blob = blob(key);
        Optional<Line> revoked = applying(REVOKED, host)
                .filter(line -> Arrays.equals(line.key(), blob) && line.decodes())
                .findFirst();
        if (revoked.isPresent()) {
            outcome = new Revoked(
                    host, type.toString(), fingerprint(key), revoked.get().number());
            return false;
        }
        if (listedPlainly(host, key)) {
            return true;
        }
        if (plain(host, type).findAny().isPresent()) {
            return hostKeyChangedAction(host, key);
        }
        Optional<Line> authority =
                applying(CERT_AUTHORITY, host).filter(Line::decodes).findFirst();
        if (authority.isPresent()) {
            outcome = new CertAuthority(
                    host, type.toString(), fingerprint(key), authority.get().number());
            return false;
        }
        return hostKeyUnverifiableAction(host, key);
    }

    /** The lines marked {@code marker} that name the host, in the file's order; their keys not yet decoded. */
    private Stream<Line> applying(String marker, String host) {
        return lines.stream().filter(line -> line.marker().equals(marker) && line.appliesTo(host));
    }

    /** The plain lines for the host with a key of {@code type} (OpenSSH skips a line whose key does not decode). */
    private Stream<Line> plain(String host, KeyType type) {
        return lines.stream().filter(line -> line.marker().isEmpty() && line.appliesTo(type, host) && line.decodes());
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
        Optional<PublicKey> ca = KnownHostsLines.decode(caBlob);
        String caFingerprint = ca.map(KnownHostsVerifier::fingerprint).orElse("(a key fleetfix cannot read)");
        for (Line line : applying(REVOKED, host).filter(Line::decodes).toList()) {
            if (Arrays.equals(line.key(), plainBlob)) {
                outcome = new Revoked(host, KeyType.fromKey(plain).toString(), fingerprint(plain), line.number());
                return false;
            }
            if (Arrays.equals(line.key(), caBlob) && ca.isPresent()) {
                outcome =
                        new RevokedAuthority(host, KeyType.fromKey(ca.get()).toString(), caFingerprint, line.number());
                return false;
            }
        }
        int otherCa = 0;
        for (Line line : applying(CERT_AUTHORITY, host).filter(Line::decodes).toList()) {
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
        return lines.stream()
                .anyMatch(line -> line.marker().isEmpty()
                        && line.appliesTo(type, host)
                        && Arrays.equals(line.key(), blob)
                        && line.decodes());
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
        if (applying(CERT_AUTHORITY, host).anyMatch(Line::decodes)) {
            // the host key's type is not known from a CA line: every certificate type SSHJ takes, first, so that a
            // host with a certificate offers it (OpenSSH orders its algorithms so too)
            algorithms.addAll(CERTIFICATE_ALGORITHMS);
        }
        applying("", host).filter(Line::decodes).forEach(line -> {
            if (line.type() == KeyType.RSA) {
                algorithms.addAll(List.of("rsa-sha2-512", "rsa-sha2-256", "ssh-rsa"));
            } else {
                algorithms.add(line.type().toString());
            }
        });
        return algorithms;
    }

    static KnownHostsVerifier load(Path file, boolean acceptNew) {
        return load(file, acceptNew, Clock.systemUTC());
    }

    /** A verifier whose host certificates are checked against {@code clock}. */
    static KnownHostsVerifier load(Path file, boolean acceptNew, Clock clock) {
        try {
            return new KnownHostsVerifier(file, acceptNew, clock, KnownHostsLines.read(file));
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
            KnownHostsLines.append(file, entry.getLine());
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

    /** The 1-based line of the entry that holds another key of this type for the host, or 0. */
    private int lineOf(String hostEntry, PublicKey key) {
        byte[] blob = blob(key);
        return plain(hostEntry, KeyType.fromKey(key))
                .filter(line -> line.number() > 0 && !Arrays.equals(line.key(), blob))
                .findFirst()
                .map(Line::number)
                .orElse(0);
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
