package dev.fleetfix.transport.ssh;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.fleetfix.KnownSecrets;
import dev.fleetfix.Secret;
import dev.fleetfix.fake.TestHosts;
import dev.fleetfix.inventory.Host;
import dev.fleetfix.transport.Become;
import dev.fleetfix.transport.LoginPassword;
import dev.fleetfix.transport.SecretPrompt;
import dev.fleetfix.transport.SshOptions;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.security.PublicKey;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import net.schmizz.sshj.SSHClient;
import net.schmizz.sshj.common.Buffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SshLoginTest {

    @TempDir
    Path home;

    @Test
    void knownHostsComesFromTheHostThenTheOptionThenHome() {
        Host plain = TestHosts.ssh("a", "10.0.0.1", 22, "fleetfix", null, null);
        Host own = TestHosts.ssh("a", "10.0.0.1", 22, "fleetfix", null, Path.of("~/lab/known_hosts"));
        SshOptions override = SshOptions.defaults().withKnownHosts(Path.of("fleet/known_hosts"));

        assertThat(login(plain, SshOptions.defaults()).knownHosts()).isEqualTo(home.resolve(".ssh/known_hosts"));
        assertThat(login(plain, override).knownHosts()).isEqualTo(Path.of("fleet/known_hosts"));
        assertThat(login(own, override).knownHosts()).isEqualTo(home.resolve("lab/known_hosts"));
    }

    @Test
    void aKeyFileIsReadOncePerRunAndAgainWhenItChanges() throws Exception {
        // every host used to read and decrypt the key file anew: a scalar multiplication per host for ed25519
        Path key = home.resolve("keys/lab");
        keygen(key);
        Host host = TestHosts.ssh("a", "10.0.0.1", 22, "fleetfix", Path.of("~/keys/lab"), null);
        long before = SshLogin.KEY_LOADS.get();

        for (int i = 0; i < 20; i++) {
            tryLogin(login(host, SshOptions.defaults()));
        }
        assertThat(SshLogin.KEY_LOADS.get() - before).isEqualTo(1);

        Files.delete(key);
        Files.delete(key.resolveSibling("lab.pub"));
        keygen(key);
        tryLogin(login(host, SshOptions.defaults()));
        assertThat(SshLogin.KEY_LOADS.get() - before).isEqualTo(2);
    }

    @Test
    void aKeyFileRewrittenInPlaceWithItsTimeSetBackIsReadAgain() throws Exception {
        // size and mtime alone kept the old key: a long-lived holder would log in with a key the user replaced
        Path key = home.resolve("keys/lab");
        Path other = home.resolve("keys/other");
        keygen(key);
        keygen(other);
        Host host = TestHosts.ssh("a", "10.0.0.1", 22, "fleetfix", Path.of("~/keys/lab"), null);
        long before = SshLogin.KEY_LOADS.get();
        tryLogin(login(host, SshOptions.defaults()));
        FileTime modified = Files.getLastModifiedTime(key);
        assertThat(Files.size(other)).isEqualTo(Files.size(key));

        Files.write(key, Files.readAllBytes(other));
        Files.write(key.resolveSibling("lab.pub"), Files.readAllBytes(other.resolveSibling("other.pub")));
        Files.setLastModifiedTime(key, modified);
        tryLogin(login(host, SshOptions.defaults()));

        assertThat(SshLogin.KEY_LOADS.get() - before).isEqualTo(2);
    }

    private static void keygen(Path key) throws Exception {
        Files.createDirectories(key.getParent());
        Process p = new ProcessBuilder("ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", key.toString())
                .redirectErrorStream(true)
                .start();
        assertThat(p.waitFor()).isZero();
    }

    /** Loads the keys, then fails: the client is not connected. */
    private static void tryLogin(SshLogin login) {
        try (SSHClient ssh = new SSHClient()) {
            login.authenticate(ssh, "fleetfix");
        } catch (Exception e) {
            assertThat(e).isNotInstanceOf(SshLogin.KeyUnusableException.class);
        }
    }

    @Test
    void theHostsKeyFileIsTheOnlyKeyOffered() {
        Host host = TestHosts.ssh("a", "10.0.0.1", 22, "fleetfix", Path.of("~/keys/lab"), null);

        assertThat(login(host, SshOptions.defaults()).keyNames()).containsExactly("~/keys/lab");
    }

    @Test
    void withoutAKeyFileTheDefaultKeysThatExistAreOfferedInOpenSshOrder() throws Exception {
        Files.createDirectories(home.resolve(".ssh"));
        Files.writeString(home.resolve(".ssh/id_rsa"), "x");
        Files.writeString(home.resolve(".ssh/id_ed25519"), "x");
        Host host = TestHosts.ssh("a", "10.0.0.1", 22, "fleetfix", null, null);

        assertThat(login(host, SshOptions.defaults()).keyNames()).containsExactly("~/.ssh/id_ed25519", "~/.ssh/id_rsa");
    }

    @Test
    void userDefaultsToTheLocalUserAndRootNeedsNoSudo() {
        Host noUser = TestHosts.local("a", true);
        Host root = TestHosts.ssh("a", "10.0.0.1", 22, "root", null, null);

        assertThat(login(noUser, SshOptions.defaults()).user()).isEqualTo("me");
        assertThat(login(noUser, SshOptions.defaults()).isRoot()).isFalse();
        assertThat(login(root, SshOptions.defaults()).isRoot()).isTrue();
    }

    @Test
    void becomeWrapsTheScriptInSudoNonInteractive() {
        assertThat(SshShell.wrap("echo 'x'; id -u", Optional.empty(), Duration.ofSeconds(60)))
                .isEqualTo("timeout -s KILL 61 sh -c 'echo '\"'\"'x'\"'\"'; id -u'");
        assertThat(SshShell.wrap(
                        "id -u", Optional.of(Become.of(TestHosts.lab("a", "10.0.0.1", true))), Duration.ofMillis(1500)))
                .isEqualTo("sudo -n timeout -s KILL 3 sh -c 'id -u'");
    }

    @Test
    void aCertificateBesideTheKeyIsOfferedFirstWhenItCertifiesThatKey() throws Exception {
        Path key = home.resolve("keys/lab");
        keygen(key);
        Path ca = home.resolve("ca");
        keygen(ca);
        Host host = TestHosts.ssh("a", "10.0.0.1", 22, "fleetfix", Path.of("~/keys/lab"), null);
        assertThat(login(host, SshOptions.defaults()).keyNames()).containsExactly("~/keys/lab");

        // ssh-keygen -s ca -I fleetfix -n fleetfix keys/lab.pub: keys/lab-cert.pub, as an SSH CA issues it
        run("ssh-keygen", "-q", "-s", ca.toString(), "-I", "fleetfix", "-n", "fleetfix", key + ".pub");
        SshLogin login = login(host, SshOptions.defaults());
        assertThat(login.keyNames()).containsExactly("certificate ~/keys/lab-cert.pub", "~/keys/lab");
        assertThat(login.trustFiles()).contains(key, home.resolve("keys/lab-cert.pub"));
        PublicKey plain = publicKey(key + ".pub");
        assertThat(UserCertificates.of(key, plain))
                .hasValueSatisfying(cert -> assertThat(cert.getKey()).isEqualTo(plain));

        // a certificate of another key (the key was replaced, its old certificate left) is not offered
        assertThat(UserCertificates.of(key, publicKey(ca + ".pub"))).isEmpty();
        tryLogin(login);
    }

    @Test
    void aCertificateFileOfTheSshConfigIsOfferedWithTheKeyItCertifiesAndOneOfAnotherKeyIsNot() throws Exception {
        Path key = home.resolve("keys/lab");
        keygen(key);
        Path ca = home.resolve("ca");
        keygen(ca);
        Path other = home.resolve("other");
        keygen(other);
        run("ssh-keygen", "-q", "-s", ca.toString(), "-I", "fleetfix", "-n", "fleetfix", key + ".pub", other + ".pub");
        // where a CA service leaves certificates, apart from the keys: only CertificateFile names them
        Path certs = Files.createDirectories(home.resolve("certs"));
        Path certificate = Files.move(home.resolve("keys/lab-cert.pub"), certs.resolve("fleet-cert.pub"));
        Path stranger = Files.move(home.resolve("other-cert.pub"), certs.resolve("other-cert.pub"));
        Host host = TestHosts.ssh("a", "10.0.0.1", 22, "fleetfix", Path.of("~/keys/lab"), null);

        SshLogin plain = login(host, SshOptions.defaults());
        SshLogin withCertificate =
                login(host, SshOptions.defaults().withCertificateFiles(List.of(Path.of("~/certs/fleet-cert.pub"))));
        SshLogin withStranger = login(host, SshOptions.defaults().withCertificateFiles(List.of(stranger)));

        assertThat(withCertificate.keyNames()).containsExactly("certificate ~/certs/fleet-cert.pub", "~/keys/lab");
        assertThat(withCertificate.trustFiles()).contains(certificate);
        try (SSHClient ssh = new SSHClient()) {
            assertThat(plain.methods(ssh, true)).hasSize(1);
            assertThat(withCertificate.methods(ssh, true))
                    .as("the certificate, then the key alone")
                    .hasSize(2);
            assertThat(withStranger.methods(ssh, true))
                    .as("a certificate of another key is not offered")
                    .hasSize(1);
        }
        tryLogin(withCertificate);
    }

    private static PublicKey publicKey(String file) throws Exception {
        String[] words = Files.readString(Path.of(file)).strip().split(" ");
        return new Buffer.PlainBuffer(Base64.getDecoder().decode(words[1])).readPublicKey();
    }

    private static void run(String... command) throws Exception {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        assertThat(p.waitFor()).as(out).isZero();
    }

    @Test
    void ansiblePasswordThenAnsibleSshPassThenThePromptedOneIsThePasswordAndItIsAlwaysScrubbed() {
        Host base = TestHosts.ssh("a", "10.0.0.1", 22, "fleetfix", Path.of("~/none"), null);
        Host both = TestHosts.from(base)
                .vars(Map.of("ansible_ssh_pass", Secret.of("second-pass-4711"), "ansible_password", "first-pass-4711"))
                .build();
        Host sshPass = TestHosts.from(base)
                .vars(Map.of("ansible_ssh_pass", Secret.of("second-pass-4711")))
                .build();
        SshOptions prompted = SshOptions.defaults().withPassword(Secret.of("prompted-pass-4711"));

        assertThat(LoginPassword.of(both, prompted).orElseThrow().source()).isEqualTo("ansible_password");
        assertThat(LoginPassword.of(both, prompted).orElseThrow().value().reveal())
                .isEqualTo("first-pass-4711");
        assertThat(LoginPassword.of(sshPass, prompted).orElseThrow().source()).isEqualTo("ansible_ssh_pass");
        assertThat(LoginPassword.of(base, prompted).orElseThrow().source()).isEqualTo("-k");
        assertThat(LoginPassword.of(base, SshOptions.defaults())).isEmpty();

        // a plain ansible_password (no Secret yet: an -e value) is scrubbed from every output once a login has it
        SshLogin login = login(both, prompted);
        assertThat(login.keyNames()).containsExactly("~/none", "password (ansible_password)");
        assertThat(KnownSecrets.scrub("sshd said first-pass-4711")).doesNotContain("first-pass-4711");
        assertThat(prompted.toString()).doesNotContain("prompted-pass-4711");
    }

    @Test
    void aPasswordWithoutAnyUsableKeyIsStillALoginToTheHostButNeverSentToItsJumpHost() throws Exception {
        Host host = TestHosts.from(TestHosts.ssh("a", "10.0.0.1", 22, "fleetfix", Path.of("~/missing"), null))
                .vars(Map.of("ansible_password", Secret.of("only-a-pass-4711")))
                .build();
        SshLogin login = login(host, SshOptions.defaults());

        try (SSHClient ssh = new SSHClient()) {
            assertThat(login.methods(ssh, true))
                    .extracting(m -> m.getClass().getSimpleName())
                    .containsExactly("AuthKeyboardInteractive", "AuthPassword");
            // to the jump host: keys only, and the missing key is the answer
            assertThatThrownBy(() -> login.methods(ssh, false))
                    .isInstanceOf(SshLogin.KeyUnusableException.class)
                    .hasMessageContaining("private key file ~/missing is missing or not readable");
        }
    }

    @Test
    void anEncryptedKeyIsAskedForOnceOnTheTerminalAndNeverWithoutOne() throws Exception {
        Path key = home.resolve("keys/locked");
        Files.createDirectories(key.getParent());
        run("ssh-keygen", "-q", "-t", "ed25519", "-N", "typed-phrase-4711", "-f", key.toString());
        Host host = TestHosts.ssh("a", "10.0.0.1", 22, "fleetfix", Path.of("~/keys/locked"), null);

        // no terminal: no prompt, and the refusal says how to give it
        assertThatThrownBy(() -> login(host, SshOptions.defaults()).authenticate(new SSHClient(), "fleetfix"))
                .isInstanceOf(SshLogin.KeyUnusableException.class)
                .hasMessageContaining(
                        "cannot use private key ~/keys/locked: it is encrypted or unreadable; give its"
                                + " passphrase with --key-passphrase-env VAR, or run fleetfix on a terminal to be asked for it");

        List<String> asked = new ArrayList<>();
        SecretPrompt wrong = prompt -> {
            asked.add(prompt);
            return Optional.of(Secret.of("not-the-phrase"));
        };
        assertThatThrownBy(() -> login(host, SshOptions.defaults().withPassphrasePrompt(wrong))
                        .authenticate(new SSHClient(), "fleetfix"))
                .hasMessageContaining("cannot use private key ~/keys/locked: the passphrase typed does not decrypt it");

        SecretPrompt right = prompt -> {
            asked.add(prompt);
            return Optional.of(Secret.of("typed-phrase-4711"));
        };
        for (int i = 0; i < 5; i++) {
            tryLogin(login(host, SshOptions.defaults().withPassphrasePrompt(right)));
        }
        // asked once for the wrong one, once for the right one: the decrypted key serves the other logins
        assertThat(asked)
                .containsExactly(
                        "Enter passphrase for key ~/keys/locked: ", "Enter passphrase for key ~/keys/locked: ");
        assertThat(KnownSecrets.scrub("typed-phrase-4711")).doesNotContain("typed-phrase-4711");
    }

    private SshLogin login(Host host, SshOptions options) {
        return SshLogin.of(host, options, home, "me", Map.of());
    }
}
