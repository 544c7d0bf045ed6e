package dev.fleetfix.transport.ssh;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.fleetfix.inventory.Host;
import dev.fleetfix.transport.Command;
import dev.fleetfix.transport.ExecResult;
import dev.fleetfix.transport.ShellFactories;
import dev.fleetfix.transport.ShellPool;
import dev.fleetfix.transport.SshOptions;
import dev.fleetfix.transport.TestHosts;
import dev.fleetfix.transport.TransportException;
import dev.fleetfix.transport.TransportException.Kind;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** SshShell against a real OpenSSH sshd. */
class SshShellIT {

    private static final String ADDRESS = "127.0.0.5";
    private static final SshOptions OPTIONS = SshOptions.defaults().withConnectTimeout(Duration.ofSeconds(5));

    @TempDir
    static Path sshdDir;

    private static LocalSshd sshd;

    @TempDir
    Path dir;

    @BeforeAll
    static void startSshd() throws Exception {
        sshd = LocalSshd.start(sshdDir, ADDRESS, freePort(ADDRESS));
    }

    @AfterAll
    static void stopSshd() throws Exception {
        sshd.close();
    }

    private Host host(Path knownHosts) {
        return TestHosts.ssh("lab-1", sshd.address(), sshd.port(), sshd.user(), sshd.privateKey(), knownHosts);
    }

    private Host trustedHost() throws Exception {
        return host(sshd.knownHosts(dir.resolve("known_hosts")));
    }

    @Test
    void logsInAndReturnsExitCodeStdoutAndStderr() throws Exception {
        try (SshShell shell = SshShell.open(trustedHost(), OPTIONS)) {
            ExecResult result = shell.exec(Command.of("echo out; echo err >&2; exit 7"));

            assertThat(result.exitCode()).isEqualTo(7);
            assertThat(result.stdout()).isEqualTo("out\n");
            assertThat(result.stderr()).isEqualTo("err\n");
            assertThat(result.duration()).isPositive().isLessThan(Duration.ofSeconds(5));
            assertThat(shell.hostName()).isEqualTo("lab-1");
        }
    }

    @Test
    void becomeRunsAsRoot() throws Exception {
        try (SshShell shell = SshShell.open(trustedHost(), OPTIONS)) {
            assertThat(shell.exec(Command.of("id -u").asRoot()).stdout()).isEqualTo("0\n");
        }
    }

    @Test
    void oneConnectionServesEveryCommand() throws Exception {
        try (SshShell shell = SshShell.open(trustedHost(), OPTIONS)) {
            Set<String> connections = new HashSet<>();
            for (int i = 0; i < 20; i++) {
                // SSH_CONNECTION holds the client's port: the same port means the same TCP connection.
                connections.add(shell.exec(Command.of("echo $SSH_CONNECTION")).stdout());
            }

            assertThat(connections).hasSize(1);
            assertThat(shell.connectCount()).isEqualTo(1);
        }
    }

    @Test
    void poolOpensOneShellPerHostThroughTheFactory() throws Exception {
        Host host = trustedHost();
        try (ShellPool pool = new ShellPool(ShellFactories.create(OPTIONS))) {
            String first =
                    pool.shell(host).exec(Command.of("echo $SSH_CONNECTION")).stdout();
            String second =
                    pool.shell(host).exec(Command.of("echo $SSH_CONNECTION")).stdout();

            assertThat(pool.shell(host)).isInstanceOf(SshShell.class);
            assertThat(second).isEqualTo(first);
        }
    }

    @Test
    void bigOutputOnBothStreamsArrivesWhole() throws Exception {
        try (SshShell shell = SshShell.open(trustedHost(), OPTIONS)) {
            ExecResult result = shell.exec(
                    Command.of("head -c 3000000 /dev/zero | tr '\\0' o; head -c 3000000 /dev/zero | tr '\\0' e >&2"));

            assertThat(result.stdout()).hasSize(3_000_000);
            assertThat(result.stderr()).hasSize(3_000_000);
        }
    }

    @Test
    void putWritesTheFileAtomicallyWithItsMode() throws Exception {
        Path target = dir.resolve("etc").resolve("thp's file.conf");
        Files.createDirectories(target.getParent());
        byte[] content = "never\n\u00e9\u0000binary".getBytes(java.nio.charset.StandardCharsets.UTF_8);
        try (SshShell shell = SshShell.open(trustedHost(), OPTIONS)) {
            shell.put(target.toString(), content, 0640, true);

            ExecResult stat =
                    shell.exec(Command.of("stat -c %a " + dev.fleetfix.transport.ShellQuote.quote(target.toString())));
            assertThat(stat.stdout()).isEqualTo("640\n");
        }
        assertThat(Files.readAllBytes(target)).isEqualTo(content);
        try (var files = Files.list(target.getParent())) {
            assertThat(files).containsExactly(target);
        }
    }

    @Test
    void commandTimeoutFailsInTimeAndTheConnectionLivesOn() throws Exception {
        try (SshShell shell = SshShell.open(trustedHost(), OPTIONS)) {
            long start = System.nanoTime();

            assertThatThrownBy(() -> shell.exec(Command.of("sleep 97").withTimeout(Duration.ofSeconds(1))))
                    .isInstanceOfSatisfying(TransportException.class, e -> {
                        assertThat(e.kind()).isEqualTo(Kind.TIMEOUT);
                        assertThat(e.getMessage())
                                .isEqualTo("host lab-1 (" + ADDRESS + ":" + sshd.port()
                                        + "): command timed out after 1s: sleep 97");
                    });

            assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(3));
            assertThat(shell.exec(Command.of("echo still here")).stdout()).isEqualTo("still here\n");
            assertThat(shell.connectCount()).isEqualTo(1);
        }
    }

    @Test
    void unknownHostKeyIsRefusedWithHowToTrustIt() {
        Path knownHosts = dir.resolve("empty_known_hosts");

        assertThatThrownBy(() -> SshShell.open(host(knownHosts), OPTIONS))
                .isInstanceOfSatisfying(TransportException.class, e -> {
                    assertThat(e.kind()).isEqualTo(Kind.HOST_KEY);
                    assertThat(e.getMessage())
                            .startsWith("host lab-1 (" + ADDRESS + ":" + sshd.port() + "): host key is not known")
                            .contains("ssh-keyscan -p " + sshd.port() + " " + ADDRESS + " >> " + knownHosts)
                            .contains("--accept-new-host-keys");
                });
        assertThat(knownHosts).doesNotExist();
    }

    @Test
    void acceptNewRecordsTheKeyAndLaterConnectionsNeedNoFlag() throws Exception {
        Path knownHosts = dir.resolve("ssh").resolve("known_hosts");

        try (SshShell shell = SshShell.open(host(knownHosts), OPTIONS.withAcceptNewHostKeys(true))) {
            assertThat(shell.exec(Command.of("true")).ok()).isTrue();
        }
        String hostKey = Files.readString(sshd.hostPublicKey()).split(" ")[1];
        assertThat(Files.readAllLines(knownHosts))
                .singleElement()
                .asString()
                .startsWith("[" + ADDRESS + "]:" + sshd.port() + " ssh-ed25519 " + hostKey);

        try (SshShell shell = SshShell.open(host(knownHosts), OPTIONS)) {
            assertThat(shell.exec(Command.of("echo again")).stdout()).isEqualTo("again\n");
        }
        assertThat(Files.readAllLines(knownHosts)).hasSize(1);
    }

    @Test
    void changedHostKeyIsRefusedNamingTheLineEvenWithAcceptNew() throws Exception {
        LocalSshd.keygen(dir.resolve("other_host_key"), "ed25519");
        String otherKey = Files.readString(dir.resolve("other_host_key.pub")).split(" ")[1];
        Path knownHosts = dir.resolve("known_hosts");
        Files.write(
                knownHosts,
                List.of(
                        "# fleet hosts",
                        "10.9.9.9 ssh-ed25519 " + otherKey,
                        "[" + ADDRESS + "]:" + sshd.port() + " ssh-ed25519 " + otherKey));

        assertThatThrownBy(() -> SshShell.open(host(knownHosts), OPTIONS.withAcceptNewHostKeys(true)))
                .isInstanceOfSatisfying(TransportException.class, e -> {
                    assertThat(e.kind()).isEqualTo(Kind.HOST_KEY);
                    assertThat(e.getMessage())
                            .startsWith("host lab-1 (" + ADDRESS + ":" + sshd.port()
                                    + "): host key changed since known_hosts line 3 (" + knownHosts + ")");
                });
        assertThat(Files.readAllLines(knownHosts)).hasSize(3);
    }

    @Test
    void hashedKnownHostsEntriesAreHonoured() throws Exception {
        Path knownHosts = sshd.knownHosts(dir.resolve("known_hosts"));
        LocalSshd.run(List.of("ssh-keygen", "-H", "-f", knownHosts.toString()));
        assertThat(Files.readString(knownHosts)).startsWith("|1|");

        try (SshShell shell = SshShell.open(host(knownHosts), OPTIONS)) {
            assertThat(shell.exec(Command.of("echo hashed")).stdout()).isEqualTo("hashed\n");
        }
    }

    @Test
    void wrongUserKeyIsAnAuthError() throws Exception {
        Path stranger = dir.resolve("stranger");
        LocalSshd.keygen(stranger, "ed25519");
        Host host = TestHosts.ssh(
                "lab-1", sshd.address(), sshd.port(), sshd.user(), stranger, sshd.knownHosts(dir.resolve("kh")));

        assertThatThrownBy(() -> SshShell.open(host, OPTIONS)).isInstanceOfSatisfying(TransportException.class, e -> {
            assertThat(e.kind()).isEqualTo(Kind.AUTH);
            assertThat(e.getMessage())
                    .isEqualTo("host lab-1 (" + ADDRESS + ":" + sshd.port() + "): authentication failed for user "
                            + sshd.user() + " with key " + stranger);
        });
    }

    @ParameterizedTest
    @ValueSource(strings = {"ed25519", "ecdsa", "rsa"})
    void logsInWithEachKeyType(String type) throws Exception {
        Path key = dir.resolve("id_" + type);
        LocalSshd.keygen(key, type);
        sshd.authorize(dir.resolve("id_" + type + ".pub"));
        Host host = TestHosts.ssh(
                "lab-1", sshd.address(), sshd.port(), sshd.user(), key, sshd.knownHosts(dir.resolve("kh")));

        try (SshShell shell = SshShell.open(host, OPTIONS)) {
            assertThat(shell.exec(Command.of("echo " + type)).stdout()).isEqualTo(type + "\n");
        }
    }

    @Test
    void nothingListeningIsUnreachableAtOnce() throws Exception {
        Host dead = TestHosts.ssh("dead", "127.0.0.99", 22, "root", sshd.privateKey(), dir.resolve("kh"));
        long start = System.nanoTime();

        assertThatThrownBy(() -> SshShell.open(dead, OPTIONS)).isInstanceOfSatisfying(TransportException.class, e -> {
            assertThat(e.kind()).isEqualTo(Kind.UNREACHABLE);
            assertThat(e.getMessage()).startsWith("host dead (127.0.0.99:22): connection refused");
        });
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(2));
    }

    @Test
    void aPortThatNeverAnswersTimesOutWithinTheConnectTimeout() throws Exception {
        // The kernel completes the TCP handshake into the backlog, but nobody ever speaks SSH.
        try (ServerSocket blackhole = new ServerSocket()) {
            blackhole.bind(new InetSocketAddress(InetAddress.getByName("127.0.0.98"), 0), 1);
            Host silent = TestHosts.ssh(
                    "silent", "127.0.0.98", blackhole.getLocalPort(), "root", sshd.privateKey(), dir.resolve("kh"));
            Duration timeout = Duration.ofMillis(1500);
            long start = System.nanoTime();

            assertThatThrownBy(() -> SshShell.open(silent, OPTIONS.withConnectTimeout(timeout)))
                    .isInstanceOfSatisfying(TransportException.class, e -> {
                        assertThat(e.kind()).isEqualTo(Kind.TIMEOUT);
                        assertThat(e.getMessage()).endsWith("connect timed out after 1500ms");
                    });
            Duration took = Duration.ofNanos(System.nanoTime() - start);
            assertThat(took).isGreaterThanOrEqualTo(timeout).isLessThan(timeout.plusSeconds(1));
        }
    }

    @Test
    void jumpHostForwardsTheConnection() throws Exception {
        Host target = TestHosts.withJump(trustedHost(), sshd.user() + "@" + ADDRESS + ":" + sshd.port());

        try (SshShell shell = SshShell.open(target, OPTIONS)) {
            String clientPort =
                    shell.exec(Command.of("echo $SSH_CONNECTION")).stdout().split(" ")[1];

            // The target's client end is the jump host's sshd (direct-tcpip), not this JVM.
            String owner =
                    LocalSshd.run(List.of("ss", "-Htnp", "state", "established", "( sport = :" + clientPort + " )"));
            assertThat(owner).contains("sshd").doesNotContain("java");
        }
    }

    private static int freePort(String address) throws Exception {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getByName(address))) {
            return socket.getLocalPort();
        }
    }
}
