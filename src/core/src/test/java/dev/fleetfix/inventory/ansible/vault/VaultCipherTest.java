package dev.fleetfix.inventory.ansible.vault;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Ansible Vault's AES256 format: the fixtures under {@code vault/} were made once by ansible-vault (ansible-core
 * 2.14) with the password in {@code vault/password.txt}; the round trips use fleetfix's own encrypt, so that
 * lengths around the AES block and both header versions are covered without Ansible.
 */
class VaultCipherTest {
    static final byte[] PASSWORD = "correct horse battery staple".getBytes(StandardCharsets.UTF_8);
    private static final Path FILE = Path.of("group_vars/all.yml");

    static String resource(String name) {
        try (InputStream in = VaultCipherTest.class.getResourceAsStream("/vault/" + name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String decrypt(String text, byte[] password) {
        return new String(
                VaultCipher.decrypt(VaultEnvelope.parse(text, FILE, 1), password)
                        .orElseThrow(),
                StandardCharsets.UTF_8);
    }

    @Test
    void decryptsAFileAnsibleVaultEncrypted() {
        assertThat(decrypt(resource("encrypted-1.1.yml"), PASSWORD))
                .isEqualTo("redis_password: s3cret-from-vault\nredis_port: 6390\n");
    }

    @Test
    void decryptsAFormat12FileAndReadsItsVaultId() {
        VaultEnvelope envelope = VaultEnvelope.parse(resource("encrypted-1.2.txt"), FILE, 1);

        assertThat(envelope.label()).contains("prod");
        assertThat(new String(VaultCipher.decrypt(envelope, PASSWORD).orElseThrow(), StandardCharsets.UTF_8))
                .isEqualTo("prod-only: ümlaut and a longer text to pass one AES block: 0123456789abcdef\n");
    }

    @Test
    void aWrongPasswordFailsTheHmac() {
        VaultEnvelope envelope = VaultEnvelope.parse(resource("encrypted-1.1.yml"), FILE, 1);

        assertThat(VaultCipher.decrypt(envelope, "correct horse battery stapler".getBytes(StandardCharsets.UTF_8)))
                .isEmpty();
    }

    @Test
    void aTamperedCiphertextFailsTheHmac() {
        VaultEnvelope envelope = VaultEnvelope.parse(resource("encrypted-1.1.yml"), FILE, 1);
        byte[] ciphertext = envelope.ciphertext().clone();
        ciphertext[3] ^= 1;
        VaultEnvelope tampered = new VaultEnvelope(
                envelope.label(), envelope.salt(), envelope.hmac(), ciphertext, envelope.file(), envelope.line());

        assertThat(VaultCipher.decrypt(tampered, PASSWORD)).isEmpty();
        assertThat(VaultCipher.decrypt(envelope, PASSWORD)).isPresent();
    }

    @Test
    void roundTripsEveryLengthAroundTheBlockInBothVersions() {
        for (int length : new int[] {0, 1, 15, 16, 17, 31, 32, 33, 1000}) {
            byte[] plain = "x".repeat(length).getBytes(StandardCharsets.UTF_8);
            for (Optional<String> label : java.util.List.of(Optional.<String>empty(), Optional.of("prod"))) {
                String text = VaultCipher.encrypt(plain, PASSWORD, label);
                VaultEnvelope envelope = VaultEnvelope.parse(text, FILE, 1);

                assertThat(envelope.label()).isEqualTo(label);
                assertThat(VaultCipher.decrypt(envelope, PASSWORD))
                        .hasValueSatisfying(
                                p -> assertThat(p).as("length %d", length).isEqualTo(plain));
            }
        }
    }

    @Test
    void encryptWritesWhatAnsibleWrites() {
        String text = VaultCipher.encrypt("a".getBytes(StandardCharsets.UTF_8), PASSWORD, Optional.empty());

        assertThat(text).startsWith("$ANSIBLE_VAULT;1.1;AES256\n").endsWith("\n");
        assertThat(text.lines().skip(1))
                .allSatisfy(
                        line -> assertThat(line).hasSizeLessThanOrEqualTo(80).matches("[0-9a-f]+"));
    }

    @Test
    void aMalformedEnvelopeIsNamedByFileAndLine() {
        assertThatThrownBy(() -> VaultEnvelope.parse("$ANSIBLE_VAULT;1.1;AES256\nzz11\n", FILE, 7))
                .isInstanceOf(VaultException.class)
                .hasMessage("group_vars/all.yml:7: malformed ansible-vault data: the body is not hexadecimal text");
        assertThatThrownBy(() -> VaultEnvelope.parse("$ANSIBLE_VAULT;1.0;AES\n3132\n", FILE, 2))
                .hasMessage("group_vars/all.yml:2: malformed ansible-vault data: vault format 1.0 is not supported"
                        + " (only 1.1 and 1.2)");
        assertThatThrownBy(() -> VaultEnvelope.parse("$ANSIBLE_VAULT;1.1;AES256\n3132\n", FILE, 3))
                .hasMessage("group_vars/all.yml:3: malformed ansible-vault data: the body does not hold salt,"
                        + " HMAC and ciphertext");
    }
}
