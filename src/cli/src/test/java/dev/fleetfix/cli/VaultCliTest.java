package dev.fleetfix.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fleetfix.inventory.ansible.vault.VaultCipher;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Vault-encrypted inventories, group_vars/host_vars files and {@code !vault} values, as a user sees them: decrypted
 * with the password given by option, environment or ansible.cfg; refused with exit 2 and file:line without one or
 * with a wrong one when used; and never printed (an inline value is listed as its ciphertext, as ansible-inventory
 * lists it, and every value of a vaulted file as ******).
 */
class VaultCliTest {
    private static final String PASSWORD = "correct horse battery staple";
    private static final String SECRET = "planted-vault-secret-4c1d";

    @TempDir
    Path dir;

    private final List<String> contacted = new CopyOnWriteArrayList<>();

    private CliRun fleetfix(Map<String, String> env, String... args) {
        Adapters adapters = Adapters.builder()
                .shells(host -> {
                    contacted.add(host.name());
                    throw new IllegalStateException("no host may be contacted");
                })
                .redis((host, timeout) -> {
                    contacted.add(host.name());
                    throw new IllegalStateException("no host may be contacted");
                })
                .build();
        return CliRun.of(Main.commandLine(new AnsibleSettings(env, dir, dir, true), adapters), args);
    }

    private Path write(String name, String text) throws IOException {
        Path file = dir.resolve(name);
        Files.createDirectories(file.getParent());
        Files.writeString(file, text);
        return file;
    }

    private static String encrypt(String plain) {
        return VaultCipher.encrypt(
                plain.getBytes(StandardCharsets.UTF_8), PASSWORD.getBytes(StandardCharsets.UTF_8), Optional.empty());
    }

    /** {@code name: !vault |} and the envelope indented under it, as ansible-vault encrypt_string prints it. */
    private static String inline(String name, String plain) {
        return name + ": !vault |\n" + encrypt(plain).indent(10);
    }

    private Path passwordFile() throws IOException {
        return write("vault-pass.txt", PASSWORD + "\n");
    }

    @Test
    void aVaultedGroupVarsFileIsDecryptedAndItsPasswordMasked() throws IOException {
        Path inventory = write("hosts.ini", "[redis]\nr1 ansible_host=10.0.0.1\n");
        write("group_vars/redis.yml", encrypt("redis_password: " + SECRET + "\nredis_port: 6390\n"));

        CliRun run = fleetfix(
                Map.of(),
                "-vvv",
                "inventory",
                "--list",
                "-i",
                inventory.toString(),
                "--vault-password-file",
                passwordFile().toString());

        assertThat(run.exitCode()).as(run.toString()).isZero();
        assertThat(run.stdout())
                .as(run.toString())
                .contains("\"redis_port\": \"******\"")
                .contains("\"redis_password\": \"******\"");
        assertThat(run.toString()).doesNotContain(SECRET);
    }

    @Test
    void withoutAPasswordAVaultedFileIsRefusedNamingTheOption() throws IOException {
        Path inventory = write("hosts.ini", "[redis]\nr1 ansible_host=10.0.0.1\n");
        Path vars = write("group_vars/redis.yml", encrypt("redis_password: " + SECRET + "\n"));

        CliRun run = fleetfix(Map.of(), "audit", "-F", "none", "-i", inventory.toString());

        assertThat(run.exitCode()).as(run.toString()).isEqualTo(ExitCode.USAGE);
        assertThat(run.stderr())
                .as(run.toString())
                .contains(vars + ":1: this is encrypted with ansible-vault and no vault password was given: pass"
                        + " --vault-password-file FILE");
        assertThat(contacted).isEmpty();
    }

    @Test
    void aWrongPasswordStopsTheAuditBeforeAnyHostIsContacted() throws IOException {
        Path inventory = write("hosts.ini", "[redis]\nr1 ansible_host=10.0.0.1\n");
        Path vars = write("group_vars/redis.yml", encrypt("redis_password: " + SECRET + "\n"));
        Path wrong = write("wrong.txt", "correct horse battery stapler\n");

        CliRun run = fleetfix(
                Map.of(), "audit", "-F", "none", "-i", inventory.toString(), "--vault-password-file", wrong.toString());

        assertThat(run.exitCode()).as(run.toString()).isEqualTo(ExitCode.USAGE);
        assertThat(run.stderr())
                .as(run.toString())
                .contains("vault: the password from " + wrong + " does not decrypt " + vars + ":1 (HMAC mismatch)");
        assertThat(contacted).isEmpty();
        assertThat(run.stdout()).isEmpty();
    }

    @Test
    void aVaultEncryptedInventoryIsReadAsItsPlaintextNotAsItsCiphertextLines() throws IOException {
        Path inventory = write("hosts", encrypt("[redis]\nr1 ansible_host=10.0.0.1\nr2 ansible_host=10.0.0.2\n"));

        CliRun refused = fleetfix(Map.of(), "inventory", "--graph", "-i", inventory.toString());
        CliRun read = fleetfix(
                Map.of(),
                "inventory",
                "--graph",
                "-i",
                inventory.toString(),
                "--vault-pass-file",
                passwordFile().toString());

        assertThat(refused.exitCode()).as(refused.toString()).isEqualTo(ExitCode.USAGE);
        assertThat(refused.stderr()).contains(inventory + ":1: this is encrypted with ansible-vault");
        assertThat(read.exitCode()).as(read.toString()).isZero();
        assertThat(read.stdout())
                .as(read.toString())
                .contains("|--@redis:")
                .contains("|--r1")
                .contains("|--r2");
        assertThat(read.stdout()
                        .lines()
                        .filter(l -> l.contains("|--") && !l.contains("@"))
                        .count())
                .isEqualTo(2);
    }

    @Test
    void anInlineVaultValueIsListedAsItsCiphertextAsAnsibleInventoryListsIt() throws IOException {
        Path inventory = write("hosts.ini", "[redis]\nr1 ansible_host=10.0.0.1\n");
        write("host_vars/r1.yml", "redis_port: 6390\n" + inline("api_token", SECRET));

        CliRun run = fleetfix(
                Map.of(),
                "inventory",
                "--host",
                "r1",
                "-i",
                inventory.toString(),
                "--vault-id",
                "default@" + passwordFile());

        assertThat(run.exitCode()).as(run.toString()).isZero();
        assertThat(run.stdout())
                .as(run.toString())
                .contains("\"api_token\": {\n        \"__ansible_vault\": \"$ANSIBLE_VAULT;1.1;AES256\\n");
        assertThat(run.toString()).doesNotContain(SECRET);
    }

    @Test
    void anInlineVaultValueWithoutAPasswordIsRefusedAtItsLine() throws IOException {
        Path inventory = write("hosts.ini", "[redis]\nr1 ansible_host=10.0.0.1\n");
        Path vars = write("host_vars/r1.yml", "redis_port: 6390\n" + inline("redis_password", SECRET));

        CliRun run = fleetfix(Map.of(), "audit", "-F", "none", "-i", inventory.toString());

        assertThat(run.exitCode()).as(run.toString()).isEqualTo(ExitCode.USAGE);
        assertThat(run.stderr()).as(run.toString()).contains(vars + ":2: this is encrypted with ansible-vault");
        assertThat(contacted).isEmpty();
    }

    @Test
    void aYamlInventoryWithAnInlineValueAVaultedFileAndAnAnsibleCfgPasswordFile() throws IOException {
        Path inventory = write(
                "inventory.yml",
                "redis:\n  hosts:\n    r1:\n      ansible_host: 10.0.0.1\n      "
                        + inline("redis_password", SECRET)
                                .replace("\n", "\n      ")
                                .stripTrailing() + "\n");
        passwordFile();
        write("ansible.cfg", "[defaults]\nvault_password_file = vault-pass.txt\n");
        write("group_vars/redis.yml", encrypt("redis_user: " + SECRET + "\n"));

        CliRun run = fleetfix(Map.of(), "inventory", "--list", "-i", inventory.toString());

        assertThat(run.exitCode()).as(run.toString()).isZero();
        // the file is decrypted with ansible.cfg's password (else refused), and every value of it masked
        assertThat(run.stdout())
                .as(run.toString())
                .contains("\"redis_user\": \"******\"")
                .contains(
                        "\"redis_password\": {\n                    \"__ansible_vault\": \"$ANSIBLE_VAULT;1.1;AES256");
        assertThat(run.toString()).doesNotContain(SECRET);
    }

    @Test
    void theEnvironmentGivesThePasswordToo() throws IOException {
        Path inventory = write("hosts.ini", "[redis]\nr1 ansible_host=10.0.0.1\n");
        write("group_vars/all.yml", encrypt("redis_port: 6390\n"));
        Path password = passwordFile();

        CliRun byFile = fleetfix(
                Map.of("ANSIBLE_VAULT_PASSWORD_FILE", password.toString()),
                "inventory",
                "--host",
                "r1",
                "-i",
                inventory.toString());
        CliRun byId = fleetfix(
                Map.of("ANSIBLE_VAULT_IDENTITY_LIST", "dev@" + dir.resolve("nope") + ",prod@" + password),
                "inventory",
                "--host",
                "r1",
                "-i",
                inventory.toString());

        // decrypted (else refused), and masked as every value of a vaulted file is
        assertThat(byFile.exitCode()).as(byFile.toString()).isZero();
        assertThat(byFile.stdout()).as(byFile.toString()).contains("\"redis_port\": \"******\"");
        // a missing password file is only read when it is needed, and the first id does not match
        assertThat(byId.exitCode()).as(byId.toString()).isEqualTo(ExitCode.USAGE);
        assertThat(byId.stderr())
                .as(byId.toString())
                .contains(
                        "vault password file " + dir.resolve("nope") + " (ANSIBLE_VAULT_IDENTITY_LIST) does not exist");
    }

    @Test
    void aPromptIsRefusedWithTheWayOut() throws IOException {
        Path inventory = write("hosts.ini", "[redis]\nr1 ansible_host=10.0.0.1\n");

        CliRun run = fleetfix(Map.of(), "inventory", "--list", "-i", inventory.toString(), "--vault-id", "prod@prompt");

        assertThat(run.exitCode()).as(run.toString()).isEqualTo(ExitCode.USAGE);
        assertThat(run.stderr())
                .contains("the default vault id only (-J/--ask-vault-pass)")
                .contains("--vault-id prod@FILE");
    }

    @Test
    void everyCommandThatReadsAnInventoryDescribesTheVaultOptions() {
        for (String command : List.of("audit", "apply", "bench", "inventory")) {
            CliRun run = CliRun.of(command, "--help");

            // picocli wraps the descriptions: compare words, not line breaks
            assertThat(run.stdout().replaceAll("\\s+", " "))
                    .as(run.toString())
                    .contains("--vault-pass-file, --vault-password-file=FILE Vault password: a file holding it, or an"
                            + " executable that prints it (repeatable).")
                    .contains("--vault-id=[LABEL@]FILE Vault password for vault id LABEL")
                    .contains("LABEL@prompt is refused: -J asks for the default id's")
                    .contains("ANSIBLE_VAULT_IDENTITY_LIST");
        }
    }
}
