package dev.fleetfix.transport.ssh;

import com.hierynomus.sshj.userauth.certificate.Certificate;
import dev.fleetfix.SshHostPatterns;
import java.io.IOException;
import java.security.PublicKey;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import net.schmizz.sshj.DefaultConfig;
import net.schmizz.sshj.common.Buffer;
import net.schmizz.sshj.common.Factory;
import net.schmizz.sshj.common.KeyType;
import net.schmizz.sshj.signature.Signature;

/**
 * What OpenSSH checks of a host certificate once a {@code @cert-authority} line for the host names the key that
 * signed it (sshconnect.c {@code check_host_cert}, sshkey.c {@code sshkey_cert_check_authority}): a host certificate,
 * not a user one; a principal that matches the name connected to (none means any); {@code valid after <= now < valid
 * before}; no critical option (OpenSSH knows none for hosts); a CA signature algorithm OpenSSH still accepts
 * ({@code CASignatureAlgorithms}: not SHA-1 {@code ssh-rsa}); and the CA's signature over the certificate.
 *
 * <p>SSHJ's own check ({@code Config.isVerifyHostKeyCertificates}) runs for every certificate offered, trusted CA or
 * not, before the known_hosts check, against the system clock and with its own messages, and accepts a certificate
 * in the very second it expires; it is turned off, and this class does the whole check with the run's clock.
 * SSHJ's signature primitives verify the signature.
 */
final class HostCertificate {
    private HostCertificate() {}

    /** {@code config} without SSHJ's own check of host certificates: {@link KnownHostsVerifier} makes OpenSSH's. */
    static DefaultConfig checkedByKnownHosts(DefaultConfig config) {
        config.setVerifyHostKeyCertificates(false);
        return config;
    }

    /** PROTOCOL.certkeys: SSH_CERT_TYPE_HOST. */
    static final long HOST_TYPE = 2;

    /** The CA signature algorithms OpenSSH has refused by default since 8.2. */
    private static final List<String> REFUSED_SIGNATURES = List.of("ssh-rsa", "ssh-dss");

    /**
     * Why OpenSSH would refuse this certificate for {@code host}, or empty when it is valid.
     *
     * @param host the name or address connected to, as the user wrote it ({@code ansible_host})
     */
    static Optional<String> problem(Certificate<?> cert, String host, Instant now) {
        if (cert.getType() != HOST_TYPE) {
            return Optional.of("it is a user certificate, not a host certificate");
        }
        String name = host.toLowerCase(Locale.ROOT);
        List<String> principals = cert.getValidPrincipals();
        if (principals != null
                && !principals.isEmpty()
                && principals.stream().noneMatch(p -> SshHostPatterns.glob(p, name))) {
            return Optional.of("it is valid for " + String.join(", ", principals) + ", not for " + name);
        }
        Instant after = cert.getValidAfter().toInstant();
        Instant before = cert.getValidBefore().toInstant();
        if (now.isBefore(after)) {
            return Optional.of("it is valid only from " + after + " (now " + seconds(now) + ")");
        }
        if (!now.isBefore(before)) {
            return Optional.of("it expired at " + before + " (now " + seconds(now) + ")");
        }
        if (cert.getCritOptions() != null && !cert.getCritOptions().isEmpty()) {
            return Optional.of("it carries critical options ("
                    + String.join(", ", cert.getCritOptions().keySet())
                    + "), which OpenSSH refuses in a host certificate");
        }
        return signatureProblem(cert);
    }

    private static Instant seconds(Instant now) {
        return now.truncatedTo(ChronoUnit.SECONDS);
    }

    private static Optional<String> signatureProblem(Certificate<?> cert) {
        try {
            String algorithm = new Buffer.PlainBuffer(cert.getSignature()).readString();
            if (REFUSED_SIGNATURES.contains(algorithm)) {
                return Optional.of("its CA signed it with " + algorithm
                        + " (SHA-1), which OpenSSH no longer accepts from a CA (CASignatureAlgorithms)");
            }
            Signature signature = Factory.Named.Util.create(KeyType.CertUtils.ALL_SIGNATURES, algorithm);
            if (signature == null) {
                return Optional.of("its CA signed it with " + algorithm + ", an algorithm fleetfix does not know");
            }
            PublicKey ca = new Buffer.PlainBuffer(cert.getSignatureKey()).readPublicKey();
            signature.initVerify(ca);
            // the signed part is the whole certificate up to its signature field (a length and the signature)
            byte[] whole = new Buffer.PlainBuffer().putPublicKey(cert).getCompactData();
            signature.update(whole, 0, whole.length - cert.getSignature().length - 4);
            return signature.verify(cert.getSignature())
                    ? Optional.empty()
                    : Optional.of("its signature does not verify with the CA's key");
        } catch (IOException | RuntimeException e) {
            return Optional.of("its signature cannot be checked: " + e.getMessage());
        }
    }
}
