package dev.fleetfix.transport.ssh;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fleetfix.transport.ssh.KnownHostsVerifier.AcceptedNew;
import dev.fleetfix.transport.ssh.KnownHostsVerifier.Changed;
import dev.fleetfix.transport.ssh.KnownHostsVerifier.Unknown;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPairGenerator;
import java.security.PublicKey;
import java.security.spec.ECGenParameterSpec;
import java.util.Base64;
import java.util.List;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import net.schmizz.sshj.common.Buffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class KnownHostsVerifierTest {

    @TempDir
    Path dir;

    private final PublicKey key = newKey();
    private final PublicKey otherKey = newKey();

    private static PublicKey newKey() {
        try {
            KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
            generator.initialize(new ECGenParameterSpec("secp256r1"));
            return generator.generateKeyPair().getPublic();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static String blob(PublicKey key) {
        return Base64.getEncoder()
                .encodeToString(new Buffer.PlainBuffer().putPublicKey(key).getCompactData());
    }

    private Path file(String... lines) throws Exception {
        Path file = dir.resolve("known_hosts");
        Files.write(file, List.of(lines));
        return file;
    }

    @Test
    void theVerifiersOfAFleetParseTheFileOnceAndSeeItsChanges() throws Exception {
        // a verifier per host used to parse the whole file: N^2 key decodes for N hosts
        Path file = file("10.0.0.1 ecdsa-sha2-nistp256 " + blob(key), "10.0.0.2 ecdsa-sha2-nistp256 " + blob(key));
        long before = KnownHostsLines.PARSES.get();

        for (int host = 0; host < 50; host++) {
            assertThat(KnownHostsVerifier.load(file, false).verify("10.0.0.2", 22, key))
                    .isTrue();
        }
        assertThat(KnownHostsLines.PARSES.get() - before).isEqualTo(1);

        Files.writeString(
                file,
                "10.0.0.3 ecdsa-sha2-nistp256 " + blob(otherKey) + "\n",
                StandardCharsets.UTF_8,
                java.nio.file.StandardOpenOption.APPEND);
        KnownHostsVerifier changed = KnownHostsVerifier.load(file, false);
        assertThat(changed.verify("10.0.0.3", 22, otherKey)).isTrue();
        assertThat(changed.verify("10.0.0.1", 22, otherKey)).isFalse();
        assertThat(changed.outcome()).isInstanceOf(Changed.class);
    }

    @Test
    void aFileEditedInPlaceWithItsSizeAndTimeKeptIsReadAgain() throws Exception {
        // issue 42 finding 3: a replaced host key, same length, the modification time set back, was trusted from
        // the parse cached by size and time
        Path file = file("10.0.0.1 ecdsa-sha2-nistp256 " + blob(key));
        assertThat(KnownHostsVerifier.load(file, false).verify("10.0.0.1", 22, key))
                .isTrue();
        java.nio.file.attribute.FileTime modified = Files.getLastModifiedTime(file);
        long size = Files.size(file);

        Thread.sleep(20); // a change time the clock can tell from the first
        Files.writeString(file, "10.0.0.1 ecdsa-sha2-nistp256 " + blob(otherKey) + "\n");
        Files.setLastModifiedTime(file, modified);
        assertThat(Files.size(file)).isEqualTo(size);

        KnownHostsVerifier edited = KnownHostsVerifier.load(file, false);
        assertThat(edited.verify("10.0.0.1", 22, key))
                .as("the old key, no longer in the file")
                .isFalse();
        assertThat(edited.verify("10.0.0.1", 22, otherKey)).isTrue();
    }

    @Test
    void aHostDecodesOnlyTheKeysOfTheLinesThatNameItAndALineWhoseKeyDoesNotDecodeIsSkipped() throws Exception {
        // decoding a key validates it (a scalar multiplication for ed25519): a host must not pay for the whole file
        List<String> lines = new java.util.ArrayList<>();
        for (int host = 1; host <= 200; host++) {
            lines.add("10.0.1." + host + " ecdsa-sha2-nistp256 " + blob(host == 7 ? key : otherKey));
        }
        // a line for 10.0.0.9 whose key is not a point of the curve: OpenSSH skips it, so the host is unknown
        byte[] broken = Base64.getDecoder().decode(blob(key));
        broken[broken.length - 1] ^= 1;
        lines.add("10.0.0.9 ecdsa-sha2-nistp256 " + Base64.getEncoder().encodeToString(broken));
        Path file = file(lines.toArray(String[]::new));
        long before = KnownHostsLines.DECODES.get();

        assertThat(KnownHostsVerifier.load(file, false).verify("10.0.1.7", 22, key))
                .isTrue();
        assertThat(KnownHostsLines.DECODES.get() - before).isEqualTo(1);
        // another host decodes its own line; a line decoded once is not decoded again
        assertThat(KnownHostsVerifier.load(file, false).verify("10.0.1.8", 22, key))
                .isFalse();
        assertThat(KnownHostsVerifier.load(file, false).verify("10.0.1.7", 22, key))
                .isTrue();
        assertThat(KnownHostsLines.DECODES.get() - before).isEqualTo(2);

        KnownHostsVerifier verifier = KnownHostsVerifier.load(file, false);
        assertThat(verifier.verify("10.0.0.9", 22, key)).isFalse();
        assertThat(verifier.outcome()).isInstanceOf(Unknown.class);
        assertThat(verifier.findExistingAlgorithms("10.0.0.9", 22)).isEmpty();
    }

    @Test
    void aMatchingEntryVerifies() throws Exception {
        KnownHostsVerifier verifier =
                KnownHostsVerifier.load(file("[10.0.0.1]:2222 ecdsa-sha2-nistp256 " + blob(key)), false);

        assertThat(verifier.verify("10.0.0.1", 2222, key)).isTrue();
        assertThat(verifier.outcome()).isNull();
    }

    @Test
    void aHashedEntryVerifies() throws Exception {
        byte[] salt = "0123456789abcdef0123".getBytes(StandardCharsets.US_ASCII);
        Mac mac = Mac.getInstance("HmacSHA1");
        mac.init(new SecretKeySpec(salt, "HmacSHA1"));
        byte[] hash = mac.doFinal("10.0.0.1".getBytes(StandardCharsets.US_ASCII));
        String hashed = "|1|" + Base64.getEncoder().encodeToString(salt) + "|"
                + Base64.getEncoder().encodeToString(hash);

        KnownHostsVerifier verifier =
                KnownHostsVerifier.load(file(hashed + " ecdsa-sha2-nistp256 " + blob(key)), false);

        assertThat(verifier.verify("10.0.0.1", 22, key)).isTrue();
        assertThat(verifier.verify("10.0.0.2", 22, key)).isFalse();
    }

    @Test
    void aNegatedPatternTakesTheHostOutOfItsLineAsOpenSshDoes() throws Exception {
        Path file = file(
                "10.0.0.*,!10.0.0.66 ecdsa-sha2-nistp256 " + blob(key),
                "[10.0.0.*]:2222,![10.0.0.66]:2222 ecdsa-sha2-nistp256 " + blob(key),
                "!10.0.0.7 ecdsa-sha2-nistp256 " + blob(key),
                "@revoked !10.0.0.8 ecdsa-sha2-nistp256 " + blob(otherKey));
        KnownHostsVerifier verifier = KnownHostsVerifier.load(file, false);

        assertThat(verifier.verify("10.0.0.65", 22, key)).isTrue();
        assertThat(verifier.verify("10.0.0.65", 2222, key)).isTrue();
        for (int port : new int[] {22, 2222}) {
            assertThat(verifier.verify("10.0.0.66", port, key))
                    .as("port " + port)
                    .isFalse();
            assertThat(verifier.outcome()).isInstanceOf(Unknown.class);
        }
        // a line of negations only applies to no host: not to every other one
        assertThat(verifier.verify("192.168.1.1", 22, key)).isFalse();
        assertThat(verifier.outcome()).isInstanceOf(Unknown.class);
        assertThat(verifier.findExistingAlgorithms("10.0.0.66", 22)).isEmpty();
        assertThat(verifier.findExistingAlgorithms("192.168.1.1", 22)).isEmpty();
    }

    @Test
    void anUnknownHostIsRefusedAndRemembered() throws Exception {
        Path file = file("10.0.0.9 ecdsa-sha2-nistp256 " + blob(otherKey));
        KnownHostsVerifier verifier = KnownHostsVerifier.load(file, false);

        assertThat(verifier.verify("10.0.0.1", 22, key)).isFalse();
        assertThat(verifier.outcome())
                .isEqualTo(new Unknown("10.0.0.1", "ecdsa-sha2-nistp256", KnownHostsVerifier.fingerprint(key)));
        assertThat(Files.readAllLines(file)).hasSize(1);
    }

    @Test
    void acceptNewAppendsTheKeyAsOpenSshWritesIt() throws Exception {
        Path file = dir.resolve("new").resolve("known_hosts");
        KnownHostsVerifier verifier = KnownHostsVerifier.load(file, true);

        assertThat(verifier.verify("10.0.0.1", 2222, key)).isTrue();
        assertThat(verifier.outcome()).isInstanceOf(AcceptedNew.class);
        assertThat(Files.readAllLines(file)).containsExactly("[10.0.0.1]:2222 ecdsa-sha2-nistp256 " + blob(key));
        assertThat(KnownHostsVerifier.load(file, false).verify("10.0.0.1", 2222, key))
                .isTrue();
    }

    @Test
    void acceptNewAddsALineBreakWhenTheFileLacksOne() throws Exception {
        Path file = dir.resolve("known_hosts");
        Files.writeString(file, "10.0.0.9 ecdsa-sha2-nistp256 " + blob(otherKey));

        KnownHostsVerifier.load(file, true).verify("10.0.0.1", 22, key);

        assertThat(Files.readAllLines(file)).hasSize(2).last().asString().startsWith("10.0.0.1 ");
    }

    @Test
    void aChangedKeyIsRefusedEvenWithAcceptNewAndItsLineFound() throws Exception {
        Path file = file(
                "# comment",
                "",
                "10.0.0.9 ecdsa-sha2-nistp256 " + blob(key),
                "10.0.0.1 ecdsa-sha2-nistp256 " + blob(otherKey));
        KnownHostsVerifier verifier = KnownHostsVerifier.load(file, true);

        assertThat(verifier.verify("10.0.0.1", 22, key)).isFalse();
        assertThat(verifier.outcome())
                .isEqualTo(new Changed("10.0.0.1", "ecdsa-sha2-nistp256", KnownHostsVerifier.fingerprint(key), 4));
        assertThat(Files.readAllLines(file)).hasSize(4);
    }

    @Test
    void fingerprintsLookLikeSshKeygens() {
        assertThat(KnownHostsVerifier.fingerprint(key)).startsWith("SHA256:").hasSize(7 + 43);
    }

    @Test
    void aRevokedKeyIsRefusedEvenWhenTheSameKeyIsAlsoListedPlainly() throws Exception {
        KnownHostsVerifier verifier = KnownHostsVerifier.load(
                file(
                        "10.0.0.1 ecdsa-sha2-nistp256 " + blob(key),
                        "# compromised",
                        "@revoked * ecdsa-sha2-nistp256 " + blob(key)),
                true);

        assertThat(verifier.verify("10.0.0.1", 22, key)).isFalse();
        assertThat(verifier.outcome())
                .isEqualTo(new KnownHostsVerifier.Revoked(
                        "10.0.0.1", "ecdsa-sha2-nistp256", KnownHostsVerifier.fingerprint(key), 3));
    }

    @Test
    void aRevokedKeyOfAnotherHostDoesNotRefuseThisOne() throws Exception {
        KnownHostsVerifier verifier = KnownHostsVerifier.load(
                file(
                        "@revoked 10.0.0.2 ecdsa-sha2-nistp256 " + blob(key),
                        "@revoked * ecdsa-sha2-nistp256 " + blob(otherKey),
                        "10.0.0.1 ecdsa-sha2-nistp256 " + blob(key)),
                false);

        assertThat(verifier.verify("10.0.0.1", 22, key)).isTrue();
        assertThat(verifier.verify("10.0.0.2", 22, key)).isFalse();
        assertThat(verifier.outcome()).isInstanceOf(KnownHostsVerifier.Revoked.class);
    }

    @Test
    void aCertAuthorityLineIsItsOwnReasonNotAChangedKey() throws Exception {
        KnownHostsVerifier verifier =
                KnownHostsVerifier.load(file("@cert-authority 10.0.0.* ecdsa-sha2-nistp256 " + blob(otherKey)), true);

        assertThat(verifier.verify("10.0.0.1", 22, key)).isFalse();
        assertThat(verifier.outcome())
                .isEqualTo(new KnownHostsVerifier.CertAuthority(
                        "10.0.0.1", "ecdsa-sha2-nistp256", KnownHostsVerifier.fingerprint(key), 1));
        // accept-new does not add a key for a host that a CA line covers
        assertThat(Files.readAllLines(dir.resolve("known_hosts"))).hasSize(1);
    }

    @Test
    void theRecordedKeyTypesAreAskedForFirstRsaWithItsSha2Signatures() throws Exception {
        KeyPairGenerator rsa = KeyPairGenerator.getInstance("RSA");
        rsa.initialize(2048);
        PublicKey rsaKey = rsa.generateKeyPair().getPublic();
        KnownHostsVerifier verifier = KnownHostsVerifier.load(
                file(
                        "[10.0.0.1]:2222 ssh-rsa " + blob(rsaKey),
                        "@revoked * ecdsa-sha2-nistp256 " + blob(otherKey),
                        "10.0.0.9 ecdsa-sha2-nistp256 " + blob(key)),
                false);

        assertThat(verifier.findExistingAlgorithms("10.0.0.1", 2222))
                .containsExactly("rsa-sha2-512", "rsa-sha2-256", "ssh-rsa");
        assertThat(verifier.verify("10.0.0.1", 2222, rsaKey)).isTrue();
    }

    @Test
    void aDeviceOrADirectoryIsNotReadAsKnownHosts() {
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> KnownHostsVerifier.load(Path.of("/dev/zero"), false))
                .hasMessage("cannot read known_hosts file /dev/zero: not a regular file");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> KnownHostsVerifier.load(dir, false))
                .hasMessage("cannot read known_hosts file " + dir + ": not a regular file");
    }
}
