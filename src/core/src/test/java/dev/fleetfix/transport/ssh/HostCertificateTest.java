package dev.fleetfix.transport.ssh;

import static org.assertj.core.api.Assertions.assertThat;

import com.hierynomus.sshj.userauth.certificate.Certificate;
import dev.fleetfix.transport.ssh.KnownHostsVerifier.CertificateRefused;
import dev.fleetfix.transport.ssh.KnownHostsVerifier.Revoked;
import dev.fleetfix.transport.ssh.KnownHostsVerifier.RevokedAuthority;
import dev.fleetfix.transport.ssh.KnownHostsVerifier.UntrustedCertificate;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.PublicKey;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import net.schmizz.sshj.common.Buffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Host certificates as OpenSSH checks them, with certificates made here by {@code ssh-keygen -s}: each rule of
 * {@link HostCertificate} and of {@link KnownHostsVerifier}'s certificate path, one input that breaks it.
 */
class HostCertificateTest {
    /** The certificates below are valid from 2030-01-01T00:00:00Z to 2030-01-02T00:00:00Z. */
    private static final String VALIDITY = "20300101000000Z:20300102000000Z";

    private static final Instant VALID_AFTER = Instant.parse("2030-01-01T00:00:00Z");
    private static final Instant VALID_BEFORE = Instant.parse("2030-01-02T00:00:00Z");
    private static final Instant NOON = Instant.parse("2030-01-01T12:00:00Z");

    @TempDir
    Path dir;

    private static void run(List<String> command) throws Exception {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor()).as(command + ": " + out).isZero();
    }

    private Path keygen(String name) throws Exception {
        Path key = dir.resolve(name);
        if (!Files.exists(key)) {
            run(List.of("ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", name, "-f", key.toString()));
        }
        return key;
    }

    /** {@code ssh-keygen -s CA -I id [-h] [-n principals] -V validity KEY.pub}: the certificate, read by SSHJ. */
    private Certificate<?> sign(String ca, String key, boolean host, String principals, String validity)
            throws Exception {
        Path pub = Path.of(keygen(key) + ".pub");
        List<String> command =
                new ArrayList<>(List.of("ssh-keygen", "-q", "-s", keygen(ca).toString(), "-I", key + "-id"));
        if (host) {
            command.add("-h");
        }
        if (!principals.isEmpty()) {
            command.addAll(List.of("-n", principals));
        }
        command.addAll(List.of("-V", validity, pub.toString()));
        run(command);
        Path cert = dir.resolve(key + "-cert.pub");
        String[] words = Files.readString(cert).strip().split(" ");
        Files.delete(cert);
        return (Certificate<?>) new Buffer.PlainBuffer(Base64.getDecoder().decode(words[1])).readPublicKey();
    }

    private Certificate<?> hostCert(String principals) throws Exception {
        return sign("ca", "host", true, principals, VALIDITY);
    }

    private String publicLine(String key) throws Exception {
        String[] words = Files.readString(Path.of(keygen(key) + ".pub")).strip().split(" ");
        return words[0] + " " + words[1];
    }

    private KnownHostsVerifier verifier(Instant now, String... lines) throws Exception {
        Path file = Files.write(dir.resolve("known_hosts"), List.of(lines));
        return KnownHostsVerifier.load(file, false, Clock.fixed(now, ZoneOffset.UTC));
    }

    @Test
    void aCertificateSignedByTheCaOfALineForTheHostIsTrustedWithinItsValidity() throws Exception {
        Certificate<?> cert = hostCert("lab-1.example,10.0.0.1");
        KnownHostsVerifier verifier = verifier(NOON, "@cert-authority 10.0.0.*,*.example " + publicLine("ca"));

        assertThat(verifier.verify("10.0.0.1", 22, cert)).isTrue();
        assertThat(verifier.verify("lab-1.example", 22, cert)).isTrue();
        // the certificate types are asked for first, so that a host with a certificate offers it
        assertThat(verifier.findExistingAlgorithms("10.0.0.1", 22)).startsWith("ssh-ed25519-cert-v01@openssh.com");
    }

    @Test
    void validAfterIsIncludedAndValidBeforeIsNotAsOpenSshCounts() throws Exception {
        Certificate<?> cert = hostCert("10.0.0.1");
        String ca = "@cert-authority 10.0.0.1 " + publicLine("ca");

        assertThat(verifier(VALID_AFTER, ca).verify("10.0.0.1", 22, cert)).isTrue();
        assertThat(verifier(VALID_BEFORE.minusSeconds(1), ca).verify("10.0.0.1", 22, cert))
                .isTrue();
        KnownHostsVerifier atExpiry = verifier(VALID_BEFORE, ca);
        assertThat(atExpiry.verify("10.0.0.1", 22, cert)).isFalse();
        assertThat(atExpiry.outcome()).isInstanceOfSatisfying(CertificateRefused.class, r -> assertThat(r.reason())
                .isEqualTo("it expired at 2030-01-02T00:00:00Z (now 2030-01-02T00:00:00Z)"));
        KnownHostsVerifier early = verifier(VALID_AFTER.minusSeconds(1), ca);
        assertThat(early.verify("10.0.0.1", 22, cert)).isFalse();
        assertThat(early.outcome()).isInstanceOfSatisfying(CertificateRefused.class, r -> assertThat(r.reason())
                .isEqualTo("it is valid only from 2030-01-01T00:00:00Z (now 2029-12-31T23:59:59Z)"));
    }

    @Test
    void aPrincipalMustMatchTheNameConnectedToAndNoneMeansAny() throws Exception {
        String ca = "@cert-authority * " + publicLine("ca");

        KnownHostsVerifier verifier = verifier(NOON, ca);
        assertThat(verifier.verify("10.0.0.2", 22, hostCert("lab-1.example,10.0.0.1")))
                .isFalse();
        assertThat(verifier.outcome())
                .isEqualTo(new CertificateRefused(
                        "10.0.0.2",
                        "ssh-ed25519-cert-v01@openssh.com",
                        caFingerprint(),
                        1,
                        "it is valid for lab-1.example, 10.0.0.1, not for 10.0.0.2"));
        // the port is no part of the name a principal names
        assertThat(verifier(NOON, ca).verify("10.0.0.1", 2222, hostCert("10.0.0.1")))
                .isTrue();
        // OpenSSH matches host principals as patterns, and a name in any case
        assertThat(verifier(NOON, ca).verify("DB-3.Example", 22, hostCert("*.example")))
                .isTrue();
        assertThat(verifier(NOON, ca).verify("db-3.example.org", 22, hostCert("*.example")))
                .isFalse();
        assertThat(verifier(NOON, ca).verify("10.9.9.9", 22, hostCert(""))).isTrue();
    }

    private String caFingerprint() throws Exception {
        String[] words = Files.readString(Path.of(keygen("ca") + ".pub")).split(" ");
        PublicKey ca = new Buffer.PlainBuffer(Base64.getDecoder().decode(words[1])).readPublicKey();
        return KnownHostsVerifier.fingerprint(ca);
    }

    @Test
    void aUserCertificateOfTheSameCaIsNoHostCertificate() throws Exception {
        Certificate<?> user = sign("ca", "host", false, "10.0.0.1", VALIDITY);
        KnownHostsVerifier verifier = verifier(NOON, "@cert-authority * " + publicLine("ca"));

        assertThat(verifier.verify("10.0.0.1", 22, user)).isFalse();
        assertThat(((CertificateRefused) verifier.outcome()).reason())
                .isEqualTo("it is a user certificate, not a host certificate");
    }

    @Test
    void aCertificateWhoseSignedPartWasChangedDoesNotVerify() throws Exception {
        Certificate<?> cert = hostCert("10.0.0.1");
        // the key id "host-id" becomes "hack-id": same length, inside the signed part
        byte[] blob = new Buffer.PlainBuffer().putPublicKey(cert).getCompactData();
        String text = new String(blob, StandardCharsets.ISO_8859_1).replace("host-id", "hack-id");
        Certificate<?> forged =
                (Certificate<?>) new Buffer.PlainBuffer(text.getBytes(StandardCharsets.ISO_8859_1)).readPublicKey();
        assertThat(forged.getId()).isEqualTo("hack-id");
        KnownHostsVerifier verifier = verifier(NOON, "@cert-authority * " + publicLine("ca"));

        assertThat(verifier.verify("10.0.0.1", 22, cert)).isTrue();
        assertThat(verifier.verify("10.0.0.1", 22, forged)).isFalse();
        assertThat(((CertificateRefused) verifier.outcome()).reason())
                .isEqualTo("its signature does not verify with the CA's key");
    }

    @Test
    void aRevokedCaOrARevokedHostKeyRefusesTheCertificateWhateverTrustsIt() throws Exception {
        Certificate<?> cert = hostCert("10.0.0.1");
        String ca = "@cert-authority * " + publicLine("ca");

        KnownHostsVerifier revokedCa = verifier(NOON, ca, "@revoked * " + publicLine("ca"));
        assertThat(revokedCa.verify("10.0.0.1", 22, cert)).isFalse();
        assertThat(revokedCa.outcome()).isEqualTo(new RevokedAuthority("10.0.0.1", "ssh-ed25519", caFingerprint(), 2));

        KnownHostsVerifier revokedKey =
                verifier(NOON, ca, "10.0.0.1 " + publicLine("host"), "@revoked 10.0.0.* " + publicLine("host"));
        assertThat(revokedKey.verify("10.0.0.1", 22, cert)).isFalse();
        assertThat(revokedKey.outcome())
                .isInstanceOfSatisfying(Revoked.class, r -> assertThat(r.line()).isEqualTo(3));

        // a @revoked line for other hosts does not concern this one
        assertThat(verifier(NOON, ca, "@revoked 10.9.* " + publicLine("ca")).verify("10.0.0.1", 22, cert))
                .isTrue();
    }

    @Test
    void aCaTrustedForOtherHostsOnlyOrAnotherCaIsNotTrustAndThePlainKeyDecidesAsInOpenSsh() throws Exception {
        Certificate<?> cert = hostCert("10.0.0.1");

        KnownHostsVerifier otherHosts = verifier(NOON, "@cert-authority 10.9.* " + publicLine("ca"));
        assertThat(otherHosts.verify("10.0.0.1", 22, cert)).isFalse();
        assertThat(otherHosts.outcome())
                .isEqualTo(
                        new UntrustedCertificate("10.0.0.1", "ssh-ed25519-cert-v01@openssh.com", caFingerprint(), 0));

        KnownHostsVerifier otherCa = verifier(NOON, "@cert-authority * " + publicLine("other-ca"));
        assertThat(otherCa.verify("10.0.0.1", 22, cert)).isFalse();
        assertThat(((UntrustedCertificate) otherCa.outcome()).line()).isEqualTo(1);

        // OpenSSH then verifies the plain key: listed, it is trusted
        assertThat(verifier(NOON, "@cert-authority * " + publicLine("other-ca"), "10.0.0.1 " + publicLine("host"))
                        .verify("10.0.0.1", 22, cert))
                .isTrue();
    }

    @Test
    void anExpiredCertificateOfTheTrustedCaIsTrustedOnlyByItsListedPlainKeyNeverRecorded() throws Exception {
        Certificate<?> cert = hostCert("10.0.0.1");
        String ca = "@cert-authority * " + publicLine("ca");
        Instant later = VALID_BEFORE.plusSeconds(3600);

        assertThat(verifier(later, ca, "10.0.0.1 " + publicLine("host")).verify("10.0.0.1", 22, cert))
                .isTrue();

        Path file = Files.write(dir.resolve("known_hosts"), List.of(ca));
        KnownHostsVerifier acceptNew = KnownHostsVerifier.load(file, true, Clock.fixed(later, ZoneOffset.UTC));
        assertThat(acceptNew.verify("10.0.0.1", 22, cert)).isFalse();
        assertThat(acceptNew.outcome()).isInstanceOf(CertificateRefused.class);
        assertThat(Files.readAllLines(file)).containsExactly(ca);
    }

    @Test
    void aSha1RsaSignatureOfTheCaIsRefusedAsOpenSshRefusesIt() throws Exception {
        run(List.of(
                "ssh-keygen",
                "-q",
                "-t",
                "rsa",
                "-b",
                "2048",
                "-N",
                "",
                "-f",
                dir.resolve("rsa-ca").toString()));
        Path pub = Path.of(keygen("host") + ".pub");
        // -t ssh-rsa: the CA signs with SHA-1
        run(List.of(
                "ssh-keygen",
                "-q",
                "-s",
                dir.resolve("rsa-ca").toString(),
                "-t",
                "ssh-rsa",
                "-I",
                "sha1",
                "-h",
                "-V",
                VALIDITY,
                pub.toString()));
        String[] words = Files.readString(dir.resolve("host-cert.pub")).strip().split(" ");
        Certificate<?> cert =
                (Certificate<?>) new Buffer.PlainBuffer(Base64.getDecoder().decode(words[1])).readPublicKey();
        KnownHostsVerifier verifier = verifier(NOON, "@cert-authority * " + publicLine("rsa-ca"));

        assertThat(verifier.verify("10.0.0.1", 22, cert)).isFalse();
        assertThat(((CertificateRefused) verifier.outcome()).reason())
                .startsWith("its CA signed it with ssh-rsa (SHA-1)");
    }
}
