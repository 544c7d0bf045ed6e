package dev.fleetfix.transport.ssh;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fleetfix.fake.TestHosts;
import dev.fleetfix.inventory.Host;
import dev.fleetfix.transport.Become;
import dev.fleetfix.transport.SshOptions;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import net.schmizz.sshj.SSHClient;
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

    private SshLogin login(Host host, SshOptions options) {
        return SshLogin.of(host, options, home, "me", Map.of());
    }
}
