package dev.fleetfix.inventory.ansible.vault;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Which passwords a keyring tries, in which order, and what it says when none fits. */
class VaultKeyringTest {
    private static final String PASSWORD = "correct horse battery staple";

    @TempDir
    Path dir;

    private final Path vars = Path.of("host_vars/r1.yml");

    private Path file(String name, String text) throws IOException {
        Path file = dir.resolve(name);
        Files.writeString(file, text);
        return file;
    }

    private Path script(String name, String body) throws IOException {
        Path file = file(name, "#!/bin/sh\n" + body + "\n");
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwx------"));
        return file;
    }

    private static String encrypted(String plain, Optional<String> label) {
        return VaultCipher.encrypt(
                plain.getBytes(StandardCharsets.UTF_8), PASSWORD.getBytes(StandardCharsets.UTF_8), label);
    }

    private static VaultPasswordSource source(String label, Path file) {
        return new VaultPasswordSource(label, file, "--vault-id");
    }

    @Test
    void aPasswordFileIsReadWithoutItsNewline() throws IOException {
        VaultKeyring keyring = new VaultKeyring(List.of(source("default", file("pw", PASSWORD + "\n\n"))));

        assertThat(keyring.decrypt(encrypted("s3cret", Optional.empty()), vars, 4))
                .isEqualTo("s3cret");
    }

    @Test
    void anExecutablePrintsThePassword() throws IOException {
        VaultKeyring keyring = new VaultKeyring(List.of(source("default", script("pw.sh", "echo '" + PASSWORD + "'"))));

        assertThat(keyring.decrypt(encrypted("s3cret", Optional.empty()), vars, 4))
                .isEqualTo("s3cret");
    }

    @Test
    void aClientScriptIsAskedForItsVaultId() throws IOException {
        Path client =
                script("keyring-client.sh", "[ \"$1\" = --vault-id ] && [ \"$2\" = prod ] && echo '" + PASSWORD + "'");
        VaultKeyring keyring = new VaultKeyring(List.of(VaultPasswordSource.ofVaultId("prod@" + client, "--vault-id")));

        assertThat(keyring.decrypt(encrypted("s3cret", Optional.of("prod")), vars, 4))
                .isEqualTo("s3cret");
    }

    @Test
    void theEnvelopesVaultIdIsTriedFirst() throws IOException {
        Path ran = dir.resolve("dev-ran");
        Path dev = script("dev.sh", "touch " + ran + "; echo wrong-password");
        Path prod = file("prod", PASSWORD);
        VaultKeyring keyring = new VaultKeyring(List.of(source("dev", dev), source("prod", prod)));

        assertThat(keyring.decrypt(encrypted("s3cret", Optional.of("prod")), vars, 4))
                .isEqualTo("s3cret");
        assertThat(ran).as("the dev password was not needed, so not asked for").doesNotExist();
    }

    @Test
    void otherVaultIdsAreTriedAfterTheMatchingOne() throws IOException {
        VaultKeyring keyring = new VaultKeyring(
                List.of(source("prod", file("wrong", "nope")), source("default", file("right", PASSWORD))));

        assertThat(keyring.decrypt(encrypted("s3cret", Optional.of("prod")), vars, 4))
                .isEqualTo("s3cret");
    }

    @Test
    void noPasswordNamesTheFileLineAndTheOptions() {
        assertThatThrownBy(() -> VaultKeyring.none().decrypt(encrypted("s3cret", Optional.empty()), vars, 4))
                .isInstanceOf(VaultException.class)
                .hasMessageStartingWith("host_vars/r1.yml:4: this is encrypted with ansible-vault and no vault"
                        + " password was given: pass --vault-password-file FILE or --vault-id [LABEL@]FILE");
    }

    @Test
    void aWrongPasswordNamesItsFileAndTheVaultedOne() throws IOException {
        Path wrong = file("wrong", "correct horse battery stapler");
        VaultKeyring keyring = new VaultKeyring(List.of(source("default", wrong)));

        assertThatThrownBy(() -> keyring.decrypt(encrypted("s3cret", Optional.empty()), vars, 4))
                .hasMessage(
                        "vault: the password from " + wrong + " does not decrypt host_vars/r1.yml:4 (HMAC mismatch)");
    }

    @Test
    void severalWrongPasswordsAreAllNamed() throws IOException {
        Path a = file("a", "one");
        Path b = file("b", "two");
        VaultKeyring keyring = new VaultKeyring(List.of(source("default", a), source("dev", b)));

        assertThatThrownBy(() -> keyring.decrypt(encrypted("s3cret", Optional.empty()), vars, 4))
                .hasMessage("vault: none of the 2 vault passwords (from " + a + ", " + b
                        + ") decrypts host_vars/r1.yml:4 (HMAC mismatch)");
    }

    @Test
    void aFailingScriptIsNamedWithItsStderrButNotItsStdout() throws IOException {
        Path pw = script("pw.sh", "echo half-a-password; echo 'keyring locked' >&2; exit 3");
        VaultKeyring keyring = new VaultKeyring(List.of(source("default", pw)));

        assertThatThrownBy(() -> keyring.decrypt(encrypted("s3cret", Optional.empty()), vars, 4))
                .hasMessage("vault: vault password script " + pw + " exited with status 3: keyring locked")
                .message()
                .doesNotContain("half-a-password");
    }

    @Test
    void anEmptyOrMissingPasswordFileIsRefused() throws IOException {
        Path empty = file("empty", "\n");
        assertThatThrownBy(() -> new VaultKeyring(List.of(source("default", empty)))
                        .decrypt(encrypted("s3cret", Optional.empty()), vars, 4))
                .hasMessage("vault: vault password file " + empty + " gives an empty password");
        Path missing = dir.resolve("missing");
        assertThatThrownBy(() -> new VaultKeyring(
                                List.of(new VaultPasswordSource("default", missing, "ANSIBLE_VAULT_PASSWORD_FILE")))
                        .decrypt(encrypted("s3cret", Optional.empty()), vars, 4))
                .hasMessage("vault: vault password file " + missing + " (ANSIBLE_VAULT_PASSWORD_FILE) does not exist");
    }

    @Test
    void aPromptIsRefused() {
        assertThatThrownBy(() -> VaultPasswordSource.ofVaultId("prod@prompt", "--vault-id"))
                .isInstanceOf(VaultException.class)
                .hasMessageContaining("the default vault id only (-J/--ask-vault-pass)");
    }

    @Test
    void aPlainFileIsReturnedAsItIs() {
        assertThat(VaultKeyring.none().reveal(vars, "redis_port: 6390\n")).isEqualTo("redis_port: 6390\n");
    }

    @Test
    void aPasswordFileLargerThanAPasswordIsRefusedWithoutReadingItWhole() throws IOException {
        Path huge = dir.resolve("huge");
        try (var out = Files.newOutputStream(huge)) {
            byte[] line = "x".repeat(1023).concat("\n").getBytes(StandardCharsets.UTF_8);
            for (int i = 0; i < 2048; i++) { // 2 MiB: far above the bound, far below what would tire the test
                out.write(line);
            }
        }
        assertThatThrownBy(() -> new VaultKeyring(List.of(source("default", huge)))
                        .decrypt(encrypted("s3cret", Optional.empty()), vars, 4))
                .isInstanceOf(VaultException.class)
                .hasMessage("vault: vault password file " + huge + " is larger than 64 KiB");
    }

    @Test
    void aFifoADeviceOrADirectoryIsNeverRead() throws Exception {
        Path fifo = dir.resolve("fifo");
        Process mkfifo = new ProcessBuilder("mkfifo", fifo.toString()).start();
        assertThat(mkfifo.waitFor()).isZero();
        for (Path notAFile : List.of(fifo, Path.of("/dev/zero"), dir)) {
            assertThatThrownBy(() -> new VaultKeyring(List.of(source("default", notAFile)))
                            .decrypt(encrypted("s3cret", Optional.empty()), vars, 4))
                    .as(notAFile.toString())
                    .isInstanceOf(VaultException.class)
                    .hasMessage("vault: vault password file " + notAFile
                            + " is not a regular file (a FIFO, a device or a directory is never read)");
        }
    }

    @Test
    void aScriptThatPrintsWithoutEndIsRefused() throws IOException {
        Path pw = script("pw.sh", "yes password");
        assertThatThrownBy(() -> new VaultKeyring(List.of(source("default", pw)))
                        .decrypt(encrypted("s3cret", Optional.empty()), vars, 4))
                .isInstanceOf(VaultException.class)
                .hasMessage("vault: vault password script " + pw + " printed more than 64 KiB");
    }

    @Test
    void aScriptThatHangsIsEndedWithTheChildrenItStarted() throws Exception {
        Path childPid = dir.resolve("child.pid");
        // a child in the background that would outlive its parent, holding the script's output open
        Path pw = script("pw.sh", "sleep 300 & echo $! > " + childPid + "; sleep 300");
        VaultPasswordSource source = new VaultPasswordSource("default", pw, "--vault-id", Duration.ofSeconds(2));

        assertThatThrownBy(
                        () -> new VaultKeyring(List.of(source)).decrypt(encrypted("s3cret", Optional.empty()), vars, 4))
                .isInstanceOf(VaultException.class)
                .hasMessage("vault: vault password script " + pw
                        + " did not finish within 2 s, and was ended with its children");
        long pid = Long.parseLong(Files.readString(childPid).strip());
        Optional<ProcessHandle> child = ProcessHandle.of(pid);
        // ended: gone, or on its way out (a handle's onExit completes once the kernel says so)
        child.ifPresent(h -> h.onExit().orTimeout(30, TimeUnit.SECONDS).join());
        assertThat(ProcessHandle.of(pid).map(ProcessHandle::isAlive)).isNotEqualTo(Optional.of(true));
    }

    @Test
    void aScriptsChildrenAreEndedWhenItExits() throws Exception {
        Path childPid = dir.resolve("child.pid");
        Path pw = script("pw.sh", "sleep 300 >/dev/null 2>&1 & echo $! > " + childPid + "; echo '" + PASSWORD + "'");
        VaultKeyring keyring = new VaultKeyring(List.of(source("default", pw)));

        assertThat(keyring.decrypt(encrypted("s3cret", Optional.empty()), vars, 4))
                .isEqualTo("s3cret");
        long pid = Long.parseLong(Files.readString(childPid).strip());
        ProcessHandle.of(pid)
                .ifPresent(h -> h.onExit().orTimeout(30, TimeUnit.SECONDS).join());
        assertThat(ProcessHandle.of(pid).map(ProcessHandle::isAlive)).isNotEqualTo(Optional.of(true));
    }
}
