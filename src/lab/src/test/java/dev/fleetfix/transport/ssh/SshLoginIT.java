package dev.fleetfix.transport.ssh;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.fleetfix.fake.TestHosts;
import dev.fleetfix.inventory.Host;
import dev.fleetfix.lab.LabFleetExtension;
import dev.fleetfix.lab.LabHost;
import dev.fleetfix.lab.LabHostSpec;
import dev.fleetfix.transport.Command;
import dev.fleetfix.transport.ExecResult;
import dev.fleetfix.transport.ShellQuote;
import dev.fleetfix.transport.SshOptions;
import dev.fleetfix.transport.TransportException;
import dev.fleetfix.transport.TransportException.Kind;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** SshShell against the lab: host key checks, keys and agent, and hosts that cannot be reached. */
class SshLoginIT {
    private static final SshOptions OPTIONS = SshOptions.defaults().withConnectTimeout(Duration.ofSeconds(5));

    @RegisterExtension
    static final LabFleetExtension fleet = LabFleetExtension.of(LabHostSpec.named("lab-1"), LabHostSpec.named("lab-2"));

    private static LabSsh lab;

    @TempDir
    Path dir;

    @BeforeAll
    static void prepareHosts() {
        lab = new LabSsh(fleet.get());
    }

    @Test
    void unknownHostKeyIsRefusedWithHowToTrustIt() {
        Path knownHosts = dir.resolve("empty_known_hosts");
        LabHost lab1 = fleet.host("lab-1");

        assertThatThrownBy(() -> SshShell.open(lab.host("lab-1", fleet.privateKey(), knownHosts), OPTIONS))
                .isInstanceOfSatisfying(TransportException.class, e -> {
                    assertThat(e.kind()).isEqualTo(Kind.HOST_KEY);
                    assertThat(e.getMessage())
                            .startsWith(lab.described("lab-1") + "host key is not known")
                            .contains("ssh-ed25519 key SHA256:")
                            .contains("ssh-keyscan -p " + lab1.sshPort() + " " + lab1.address() + " >> " + knownHosts)
                            .contains("--accept-new-host-keys");
                });
        assertThat(knownHosts).doesNotExist();
    }

    @Test
    void acceptNewRecordsTheKeyAsOpenSshWouldAndLaterConnectionsNeedNoFlag() throws Exception {
        Path knownHosts = dir.resolve("ssh").resolve("known_hosts");
        Host host = lab.host("lab-1", fleet.privateKey(), knownHosts);

        try (SshShell shell = SshShell.open(host, OPTIONS.withAcceptNewHostKeys(true))) {
            assertThat(shell.exec(Command.of("true")).ok()).isTrue();
        }
        assertThat(Files.readAllLines(knownHosts)).containsExactly(labKnownHostsLine("lab-1"));

        try (SshShell shell = SshShell.open(host, OPTIONS)) {
            assertThat(shell.exec(Command.of("echo again")).stdout()).isEqualTo("again\n");
        }
        assertThat(Files.readAllLines(knownHosts)).hasSize(1);
    }

    @Test
    void changedHostKeyIsRefusedNamingTheLineEvenWithAcceptNew() throws Exception {
        // lab-2's key recorded under lab-1's address: to SSH it looks exactly like a changed key.
        String lab1 = labKnownHostsLine("lab-1");
        String forged = lab1.split(" ")[0] + " " + labKnownHostsLine("lab-2").split(" ", 2)[1];
        Path knownHosts = dir.resolve("known_hosts");
        Files.write(knownHosts, List.of("# fleet", labKnownHostsLine("lab-2"), forged));

        assertThatThrownBy(() -> SshShell.open(
                        lab.host("lab-1", fleet.privateKey(), knownHosts), OPTIONS.withAcceptNewHostKeys(true)))
                .isInstanceOfSatisfying(TransportException.class, e -> {
                    assertThat(e.kind()).isEqualTo(Kind.HOST_KEY);
                    assertThat(e.getMessage())
                            .startsWith(lab.described("lab-1") + "host key changed since known_hosts line 3 ("
                                    + knownHosts + "): " + fleet.host("lab-1").address() + " now offers ssh-ed25519")
                            .contains("ssh-keygen -R");
                });
        assertThat(Files.readAllLines(knownHosts)).hasSize(3);
    }

    @Test
    void hashedKnownHostsEntriesAreHonoured() throws Exception {
        Path knownHosts = dir.resolve("known_hosts");
        Files.copy(fleet.knownHostsFile(), knownHosts);
        run(List.of("ssh-keygen", "-H", "-f", knownHosts.toString()));
        assertThat(Files.readAllLines(knownHosts))
                .allSatisfy(line -> assertThat(line).startsWith("|1|"));

        try (SshShell shell = SshShell.open(lab.host("lab-1", fleet.privateKey(), knownHosts), OPTIONS)) {
            assertThat(shell.exec(Command.of("echo hashed")).stdout()).isEqualTo("hashed\n");
        }
    }

    @Test
    void aRevokedHostKeyIsRefusedEvenWhenTheSameKeyIsListedPlainly() throws Exception {
        String plain = labKnownHostsLine("lab-1");
        String revoked = "@revoked * " + plain.split(" ", 2)[1];
        Path knownHosts = dir.resolve("known_hosts");
        Files.write(knownHosts, List.of(plain, revoked));

        assertThatThrownBy(() -> SshShell.open(
                        lab.host("lab-1", fleet.privateKey(), knownHosts), OPTIONS.withAcceptNewHostKeys(true)))
                .isInstanceOfSatisfying(TransportException.class, e -> {
                    assertThat(e.kind()).isEqualTo(Kind.HOST_KEY);
                    assertThat(e.getMessage())
                            .startsWith(lab.described("lab-1") + "host key is revoked: "
                                    + fleet.host("lab-1").address() + " offers ssh-ed25519 key SHA256:")
                            .contains("known_hosts line 2 (" + knownHosts + ") marks @revoked");
                });
        assertThat(Files.readAllLines(knownHosts)).hasSize(2);
    }

    @Test
    void aCertAuthorityLineIsRefusedWithItsOwnReasonNotAsAChangedKey() throws Exception {
        Path ca = keygen("ca", "ed25519", "");
        String caKey = Files.readString(Path.of(ca + ".pub")).strip();
        Path knownHosts = dir.resolve("known_hosts");
        Files.write(knownHosts, List.of("@cert-authority " + fleet.host("lab-1").address() + ",*.lab " + caKey));

        assertThatThrownBy(() -> SshShell.open(lab.host("lab-1", fleet.privateKey(), knownHosts), OPTIONS))
                .isInstanceOfSatisfying(TransportException.class, e -> {
                    assertThat(e.kind()).isEqualTo(Kind.HOST_KEY);
                    assertThat(e.getMessage())
                            .startsWith(lab.described("lab-1") + "host key not verifiable: known_hosts line 1 ("
                                    + knownHosts + ") trusts a @cert-authority")
                            .contains("but the host offered its plain ssh-ed25519 key SHA256:")
                            .contains("give its sshd a HostCertificate")
                            .doesNotContain("changed");
                });
    }

    @Test
    void aHostRecordedWithItsRsaKeyIsMetWithItsRsaKeyThoughItAlsoHasEd25519() throws Exception {
        // lab-2's sshd gets an RSA host key next to its ed25519 one; known_hosts records only the RSA key
        ExecResult added = fleet.rootExec(
                "lab-2",
                "[ -e /etc/ssh/ssh_host_rsa_key ] || ssh-keygen -q -t rsa -b 2048 -N '' -f /etc/ssh/ssh_host_rsa_key"
                        + " && (grep -q ssh_host_rsa_key /etc/ssh/sshd_config.d/00-fleetfix-lab-host.conf"
                        + " || echo 'HostKey /etc/ssh/ssh_host_rsa_key' >> /etc/ssh/sshd_config.d/00-fleetfix-lab-host.conf)"
                        + " && cat /etc/ssh/ssh_host_rsa_key.pub");
        assertThat(added.exitCode()).as(added.stderr()).isZero();
        // sshd re-executes itself on a reload: log in only once it answers again
        fleet.reloadSshd("lab-2");
        String[] rsa = added.stdout().strip().split(" ");
        String host = labKnownHostsLine("lab-2").split(" ")[0];
        Path knownHosts = dir.resolve("known_hosts");
        Files.write(knownHosts, List.of(host + " " + rsa[0] + " " + rsa[1]));

        try (SshShell shell =
                SshShell.open(lab.host("lab-2", fleet.privateKey(), knownHosts), OPTIONS.withAcceptNewHostKeys(true))) {
            assertThat(shell.exec(Command.of("echo rsa")).stdout()).isEqualTo("rsa\n");
        }
        // accept-new did not add the ed25519 key: the known type was used
        assertThat(Files.readAllLines(knownHosts)).hasSize(1);
    }

    @Test
    void wrongUserKeyIsAnAuthError() throws Exception {
        Path stranger = keygen("stranger", "ed25519", "");

        assertThatThrownBy(() -> SshShell.open(lab.host("lab-1", stranger, fleet.knownHostsFile()), OPTIONS))
                .isInstanceOfSatisfying(TransportException.class, e -> {
                    assertThat(e.kind()).isEqualTo(Kind.AUTH);
                    assertThat(e.getMessage())
                            .isEqualTo(lab.described("lab-1") + "authentication failed for user fleetfix with key "
                                    + stranger);
                });
    }

    @ParameterizedTest
    @ValueSource(strings = {"ed25519", "ecdsa", "rsa"})
    void logsInWithEachKeyType(String type) throws Exception {
        Path key = keygen("id_" + type, type, "");
        authorize("lab-2", key);

        try (SshShell shell = SshShell.open(lab.host("lab-2", key, fleet.knownHostsFile()), OPTIONS)) {
            assertThat(shell.exec(Command.of("echo " + type)).stdout()).isEqualTo(type + "\n");
        }
    }

    @Test
    void anEncryptedKeyIsDecryptedWithThePassphraseFromTheEnvironment() throws Exception {
        Path key = keygen("id_locked", "ed25519", "correct horse");
        authorize("lab-2", key);
        Host host = lab.host("lab-2", key, fleet.knownHostsFile());
        SshOptions options = new SshOptions(
                Optional.empty(), false, OPTIONS.connectTimeout(), Optional.of("FLEETFIX_KEY_PASSPHRASE"));
        Path home = dir.resolve("home");

        SshLogin unlocked =
                SshLogin.of(host, options, home, "nobody", Map.of("FLEETFIX_KEY_PASSPHRASE", "correct horse"));
        try (SshShell shell = SshShell.open(host, options, unlocked)) {
            assertThat(shell.exec(Command.of("echo unlocked")).stdout()).isEqualTo("unlocked\n");
        }

        SshLogin wrong =
                SshLogin.of(host, options, home, "nobody", Map.of("FLEETFIX_KEY_PASSPHRASE", "battery staple"));
        assertThatThrownBy(() -> SshShell.open(host, options, wrong))
                .hasMessage(lab.described("lab-2") + "cannot use private key " + key
                        + ": the passphrase in FLEETFIX_KEY_PASSPHRASE does not decrypt it");

        SshLogin locked = SshLogin.of(host, options, home, "nobody", Map.of());
        assertThatThrownBy(() -> SshShell.open(host, options, locked))
                .isInstanceOfSatisfying(TransportException.class, e -> {
                    assertThat(e.kind()).isEqualTo(Kind.AUTH);
                    assertThat(e.getMessage())
                            .isEqualTo(lab.described("lab-2") + "cannot use private key " + key + ": it is encrypted or"
                                    + " unreadable and environment variable FLEETFIX_KEY_PASSPHRASE"
                                    + " (--key-passphrase-env) is not set");
                });
    }

    @ParameterizedTest
    @ValueSource(strings = {"ed25519", "rsa"})
    void logsInWithAKeyHeldBySshAgent(String type) throws Exception {
        Path key = keygen("agent_" + type, type, "");
        authorize("lab-2", key);
        Path socket = dir.resolve("agent.sock");
        Process agent = new ProcessBuilder("ssh-agent", "-D", "-a", socket.toString())
                .redirectErrorStream(true)
                .start();
        try {
            awaitFile(socket);
            ProcessBuilder add = new ProcessBuilder("ssh-add", key.toString());
            add.environment().put("SSH_AUTH_SOCK", socket.toString());
            assertThat(add.redirectErrorStream(true).start().waitFor()).isZero();
            Host host = lab.host("lab-2", null, fleet.knownHostsFile());
            // An empty home: no default key could be what logs in.
            SshLogin login = SshLogin.of(
                    host, OPTIONS, dir.resolve("home"), "nobody", Map.of("SSH_AUTH_SOCK", socket.toString()));

            try (SshShell shell = SshShell.open(host, OPTIONS, login)) {
                assertThat(shell.exec(Command.of("echo agent")).stdout()).isEqualTo("agent\n");
            }
        } finally {
            agent.destroy();
        }
    }

    @Test
    void withoutAnyKeyTheErrorSaysWhatWasLookedFor() {
        Host host = lab.host("lab-2", null, fleet.knownHostsFile());
        SshLogin login = SshLogin.of(host, OPTIONS, dir.resolve("home"), "nobody", Map.of());

        assertThatThrownBy(() -> SshShell.open(host, OPTIONS, login))
                .isInstanceOfSatisfying(TransportException.class, e -> {
                    assertThat(e.kind()).isEqualTo(Kind.AUTH);
                    assertThat(e.getMessage())
                            .startsWith(lab.described("lab-2") + "no private key: the host sets no"
                                    + " ansible_ssh_private_key_file, no ssh-agent");
                });
    }

    @Test
    void aStoppedSshdIsUnreachableAtOnce() {
        fleet.stopSshd("lab-2");
        try {
            // "at once" is "not after the connect timeout": a long one tells the two apart on any machine
            SshOptions patient = OPTIONS.withConnectTimeout(Duration.ofSeconds(120));
            long start = System.nanoTime();

            assertThatThrownBy(() -> SshShell.open(lab.host("lab-2"), patient))
                    .isInstanceOfSatisfying(TransportException.class, e -> {
                        assertThat(e.kind()).isEqualTo(Kind.UNREACHABLE);
                        assertThat(e.getMessage()).startsWith(lab.described("lab-2") + "connection refused");
                    });
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(60));
        } finally {
            fleet.startSshd("lab-2");
        }
    }

    @Test
    void aPortThatNeverAnswersTimesOutWithinTheConnectTimeout() throws Exception {
        // The kernel completes the TCP handshake into the backlog, but nobody ever speaks SSH.
        try (ServerSocket blackhole = new ServerSocket()) {
            blackhole.bind(new InetSocketAddress("127.0.0.8", 0), 1);
            Host silent = TestHosts.ssh(
                    "silent", "127.0.0.8", blackhole.getLocalPort(), "fleetfix", fleet.privateKey(), dir.resolve("kh"));
            Duration timeout = Duration.ofMillis(1500);
            long start = System.nanoTime();

            assertThatThrownBy(() -> SshShell.open(silent, OPTIONS.withConnectTimeout(timeout)))
                    .isInstanceOfSatisfying(TransportException.class, e -> {
                        assertThat(e.kind()).isEqualTo(Kind.TIMEOUT);
                        assertThat(e.getMessage())
                                .isEqualTo("host silent (127.0.0.8:" + blackhole.getLocalPort()
                                        + "): connect timed out after 1500ms");
                    });
            Duration took = Duration.ofNanos(System.nanoTime() - start);
            // not before the timeout; after it, at once on a quiet machine (a bound of 1 s failed on a busy one).
            // What this guards against is a read with no timeout at all, which never ends
            assertThat(took).isGreaterThanOrEqualTo(timeout).isLessThan(timeout.plusSeconds(30));
        }
    }

    private static String labKnownHostsLine(String name) throws Exception {
        String address = fleet.host(name).address();
        return Files.readAllLines(fleet.knownHostsFile()).stream()
                .filter(line -> line.startsWith(address + " ") || line.startsWith("[" + address + "]:"))
                .findFirst()
                .orElseThrow();
    }

    private Path keygen(String name, String type, String passphrase) throws Exception {
        Path key = dir.resolve(name);
        run(List.of("ssh-keygen", "-q", "-t", type, "-N", passphrase, "-C", "fleetfix-test", "-f", key.toString()));
        return key;
    }

    private static void authorize(String host, Path key) throws Exception {
        String publicKey = Files.readString(Path.of(key + ".pub")).strip();
        ExecResult added =
                fleet.rootExec(host, "echo " + ShellQuote.quote(publicKey) + " >> ~fleetfix/.ssh/authorized_keys");
        assertThat(added.exitCode()).as(added.stderr()).isZero();
    }

    private static void awaitFile(Path file) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
        while (!Files.exists(file) && System.nanoTime() < deadline) {
            Thread.sleep(50);
        }
        assertThat(file).exists();
    }

    private static String run(List<String> argv) throws Exception {
        Process process = new ProcessBuilder(argv).redirectErrorStream(true).start();
        String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor()).as(argv + ": " + out).isZero();
        return out;
    }
}
