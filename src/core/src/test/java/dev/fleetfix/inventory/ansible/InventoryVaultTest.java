package dev.fleetfix.inventory.ansible;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fleetfix.KnownSecrets;
import dev.fleetfix.Secret;
import dev.fleetfix.inventory.Host;
import dev.fleetfix.inventory.ansible.vault.VaultCipher;
import dev.fleetfix.inventory.ansible.vault.VaultKeyring;
import dev.fleetfix.inventory.ansible.vault.VaultPasswordSource;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Decrypted vault values reach the hosts: the Redis password a step would send is the plaintext. */
class InventoryVaultTest {
    private static final String PASSWORD = "correct horse battery staple";

    @TempDir
    Path dir;

    private VaultKeyring keyring;

    @BeforeEach
    void keyring() throws IOException {
        Path file = Files.writeString(dir.resolve("pw"), PASSWORD + "\n");
        keyring = new VaultKeyring(List.of(new VaultPasswordSource("default", file, "--vault-password-file")));
        Files.writeString(dir.resolve("hosts.ini"), "[redis]\nr1 ansible_host=10.0.0.1\n");
        Files.createDirectories(dir.resolve("host_vars"));
        Files.createDirectories(dir.resolve("group_vars"));
    }

    private Host r1() {
        return InventorySources.load(dir.resolve("hosts.ini").toString(), Optional.empty(), keyring)
                .inventory()
                .host("r1")
                .orElseThrow();
    }

    private static String resource(String name) throws IOException {
        try (InputStream in = InventoryVaultTest.class.getResourceAsStream("/vault/" + name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    private static String encrypt(String plain) {
        return VaultCipher.encrypt(
                plain.getBytes(StandardCharsets.UTF_8), PASSWORD.getBytes(StandardCharsets.UTF_8), Optional.empty());
    }

    @Test
    void anInlineValueAnsibleVaultEncryptedIsTheRedisPassword() throws IOException {
        // made by: ansible-vault encrypt_string 'inline-s3cret' --name redis_password
        Files.writeString(dir.resolve("host_vars/r1.yml"), resource("inline.yml") + "\n");

        Host r1 = r1();

        assertThat(r1.redis().auth().password().map(Secret::reveal)).contains("inline-s3cret");
        assertThat(r1.vars().get("redis_password")).hasToString("******");
    }

    @Test
    void aFileAnsibleVaultEncryptedGivesItsVariables() throws IOException {
        Files.writeString(dir.resolve("group_vars/redis.yml"), resource("encrypted-1.1.yml"));

        Host r1 = r1();

        assertThat(r1.redis().port()).isEqualTo(6390);
        assertThat(r1.redis().auth().password().map(Secret::reveal)).contains("s3cret-from-vault");
    }

    @Test
    void aPasswordTemplatedFromAVaultedVariableIsItsPlaintext() throws IOException {
        Files.writeString(
                dir.resolve("group_vars/redis.yml"),
                "redis_password: \"{{ vault_redis_password }}\"\nvault_redis_password: !vault |\n"
                        + encrypt("templated-s3cret").indent(2));

        assertThat(r1().redis().auth().password().map(Secret::reveal)).contains("templated-s3cret");
    }

    @Test
    void aVaultedFilesSettingsArePrintableAndItsPasswordIsScrubbedOnceUsed() throws IOException {
        Files.writeString(
                dir.resolve("group_vars/redis.yml"),
                encrypt("ansible_user: deploy-8e1f\nredis_port: 16392\nredis_password: filepass-2a7c9e\n"
                        + "api_token: unused-token-4b1d\n"));

        Host r1 = r1();

        assertThat(r1.redis().port()).isEqualTo(16392);
        assertThat(r1.vars().get("redis_port")).hasToString("******");
        // a vaulted group_vars file of ports and users must not mask every 16392 of every output
        assertThat(KnownSecrets.scrub("deploy-8e1f@10.0.0.1:16392")).isEqualTo("deploy-8e1f@10.0.0.1:16392");
        assertThat(r1.redis().auth().password().map(Secret::reveal)).contains("filepass-2a7c9e");
        assertThat(KnownSecrets.scrub("AUTH filepass-2a7c9e")).isEqualTo("AUTH ******");
    }
}
