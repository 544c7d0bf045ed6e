package dev.fleetfix.transport.ssh;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.fleetfix.cli.ShellFactories;
import dev.fleetfix.fake.TestHosts;
import dev.fleetfix.inventory.Host;
import dev.fleetfix.lab.LabFleetExtension;
import dev.fleetfix.lab.LabHost;
import dev.fleetfix.lab.LabHostSpec;
import dev.fleetfix.transport.Command;
import dev.fleetfix.transport.ExecResult;
import dev.fleetfix.transport.ShellPool;
import dev.fleetfix.transport.ShellQuote;
import dev.fleetfix.transport.SshOptions;
import dev.fleetfix.transport.TransportException;
import dev.fleetfix.transport.TransportException.Kind;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** SshShell against the lab: running commands, become, reuse, put, timeouts, jump hosts. */
class SshShellIT {
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
    void logsInAndReturnsExitCodeStdoutAndStderr() {
        try (SshShell shell = SshShell.open(lab.host("lab-1"), OPTIONS)) {
            long start = System.nanoTime();
            ExecResult result = shell.exec(Command.of("id -un; echo err >&2; exit 7"));
            Duration around = Duration.ofNanos(System.nanoTime() - start);

            assertThat(result.exitCode()).isEqualTo(7);
            assertThat(result.stdout()).isEqualTo("fleetfix\n");
            assertThat(result.stderr()).isEqualTo("err\n");
            // the command's own time, within the time around the call (a fixed bound was the machine's speed)
            assertThat(result.duration()).isPositive().isLessThanOrEqualTo(around);
            assertThat(shell.hostName()).isEqualTo("lab-1");
        }
    }

    @Test
    void becomeRunsThroughSudoNonInteractive() {
        try (SshShell shell = SshShell.open(lab.host("lab-1"), OPTIONS)) {
            ExecResult root =
                    shell.exec(Command.of("id -un; echo \"$SUDO_USER\"").asRoot());

            assertThat(root.stdout()).as(root.stderr()).isEqualTo("root\nfleetfix\n");
            assertThat(shell.exec(Command.of("id -un")).stdout()).isEqualTo("fleetfix\n");
        }
    }

    @Test
    void aHostWithoutBecomeRunsRootCommandsAsTheLoginUser() {
        Host plain = TestHosts.withoutBecome(lab.host("lab-1"));
        try (SshShell shell = SshShell.open(plain, OPTIONS)) {
            assertThat(shell.exec(Command.of("id -un").asRoot()).stdout()).isEqualTo("fleetfix\n");
        }
    }

    @Test
    void oneConnectionServesEveryCommand() {
        try (SshShell shell = SshShell.open(lab.host("lab-1"), OPTIONS)) {
            Set<String> connections = new HashSet<>();
            for (int i = 0; i < 20; i++) {
                // SSH_CONNECTION holds the client's port: one port, one TCP connection.
                connections.add(shell.exec(Command.of("echo $SSH_CONNECTION")).stdout());
                // sudo resets the environment, so root commands only show that no new connection was made.
                assertThat(shell.exec(Command.of("id -u").asRoot()).stdout()).isEqualTo("0\n");
            }

            assertThat(connections).hasSize(1);
            assertThat(shell.connectCount()).isEqualTo(1);
        }
    }

    @Test
    void aConnectionThatDiedIsMadeAgainForTheNextCommand() throws Exception {
        try (SshShell shell = SshShell.open(lab.host("lab-1"), OPTIONS)) {
            String before = shell.exec(Command.of("echo $SSH_CONNECTION")).stdout();

            // What a restarted sshd or a rebooted host does to open connections.
            fleet.rootExec("lab-1", "pkill -KILL -u fleetfix -f '^sshd: fleetfix'");
            // gone, rather than 300 ms guessed for it
            assertThat(awaitNone("lab-1", "pgrep -u fleetfix -f '^sshd: fleetfix'"))
                    .as("the session's sshd killed")
                    .isTrue();

            String after = shell.exec(Command.of("echo $SSH_CONNECTION")).stdout();
            assertThat(after).isNotEqualTo(before).contains(fleet.host("lab-1").address());
            assertThat(shell.connectCount()).isEqualTo(2);
        }
    }

    @Test
    void poolOpensOneShellPerHostThroughTheFactory() {
        try (ShellPool pool = new ShellPool(ShellFactories.create(OPTIONS))) {
            String first = pool.shell(lab.host("lab-1"))
                    .exec(Command.of("echo $SSH_CONNECTION"))
                    .stdout();
            String again = pool.shell(lab.host("lab-1"))
                    .exec(Command.of("echo $SSH_CONNECTION"))
                    .stdout();
            String other = pool.shell(lab.host("lab-2"))
                    .exec(Command.of("echo $SSH_CONNECTION"))
                    .stdout();

            assertThat(pool.shell(lab.host("lab-1"))).isInstanceOf(SshShell.class);
            assertThat(again).isEqualTo(first);
            assertThat(other).isNotEqualTo(first).contains(fleet.host("lab-2").address());
        }
    }

    @Test
    void bigOutputOnBothStreamsIsReadThroughAndKeptAsHeadAndTail() {
        try (SshShell shell = SshShell.open(lab.host("lab-1"), OPTIONS)) {
            ExecResult result = shell.exec(
                    Command.of("head -c 3000000 /dev/zero | tr '\\0' o; head -c 3000000 /dev/zero | tr '\\0' e >&2"));

            // both streams drained to their end (no deadlock); each keeps its first and last 512 KiB
            assertThat(result.exitCode()).isZero();
            assertThat(result.dropped()).isEqualTo(2 * (3_000_000 - 1_048_576));
            assertThat(result.stdout()).startsWith("ooo").endsWith("ooo").contains("\n... 1.9 MB dropped ...\n");
            assertThat(result.stderr()).startsWith("eee").endsWith("eee").contains("\n... 1.9 MB dropped ...\n");
        }
    }

    @Test
    void putWritesARootOwnedFileAtomicallyWithItsMode() {
        byte[] content = "never\n\u00e9\u0000'quoted' $(id)\n".getBytes(StandardCharsets.UTF_8);
        try (SshShell shell = SshShell.open(lab.host("lab-1"), OPTIONS)) {
            shell.put("/etc/fleetfix test's.conf", content, 0640, true);
        }

        ExecResult stat = fleet.rootExec("lab-1", "stat -c '%a %U' \"/etc/fleetfix test's.conf\"; ls -a /etc");
        assertThat(stat.stdout()).startsWith("640 root\n").doesNotContain(".fleetfix.");
        ExecResult read = fleet.rootExec("lab-1", "base64 -w0 \"/etc/fleetfix test's.conf\"");
        assertThat(Base64.getDecoder().decode(read.stdout().strip())).isEqualTo(content);
    }

    @Test
    void putWithoutBecomeWhereOnlyRootMayWriteFailsNamingThePath() {
        try (SshShell shell = SshShell.open(lab.host("lab-1"), OPTIONS)) {
            assertThatThrownBy(() -> shell.put("/etc/fleetfix-denied.conf", new byte[] {1}, 0644, false))
                    .isInstanceOf(TransportException.class)
                    .hasMessageStartingWith(
                            lab.described("lab-1") + "writing /etc/fleetfix-denied.conf failed (exit 1)")
                    .hasMessageContaining("Permission denied");
        }
    }

    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void commandTimeoutFailsInTimeKillsTheCommandAndKeepsTheConnection(boolean become) throws Exception {
        try (SshShell shell = SshShell.open(lab.host("lab-1"), OPTIONS)) {
            Command slow = new Command("sleep 97; echo late", become, Duration.ofSeconds(1));
            long start = System.nanoTime();

            assertThatThrownBy(() -> shell.exec(slow)).isInstanceOfSatisfying(TransportException.class, e -> {
                assertThat(e.kind()).isEqualTo(Kind.TIMEOUT);
                assertThat(e.getMessage())
                        .isEqualTo(lab.described("lab-1") + "command timed out after 1s: sleep 97; echo late");
            });

            // the 1 s timeout, not the command's 97 s (a bound of 3 s was a loaded machine's time too)
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(45));
            assertThat(shell.exec(Command.of("echo still here")).stdout()).isEqualTo("still here\n");
            assertThat(shell.connectCount()).isEqualTo(1);
            assertThat(awaitGone("lab-1", "sleep 97"))
                    .as("the timed-out command was killed")
                    .isTrue();
        }
    }

    @Test
    void jumpHostForwardsTheConnection() throws Exception {
        LabHost bastion = fleet.host("lab-1");
        Host target = TestHosts.withJump(lab.host("lab-2"), "fleetfix@" + bastion.address() + ":" + bastion.sshPort());

        try (SshShell shell = SshShell.open(target, OPTIONS)) {
            String clientPort =
                    shell.exec(Command.of("echo $SSH_CONNECTION")).stdout().split(" ")[1];

            // lab-2's client end belongs to lab-1's sshd (direct-tcpip), not to this JVM. The lab runs on
            // the host's network, so the socket shows up here.
            String owner = run(List.of("ss", "-Htnp", "state", "established", "( sport = :" + clientPort + " )"));
            assertThat(owner).contains("sshd").doesNotContain("java");
        }
    }

    @Test
    void aJumpHostThatRefusesSaysSo() {
        Host target = TestHosts.withJump(lab.host("lab-2"), "fleetfix@127.0.0.9:22");

        assertThatThrownBy(() -> SshShell.open(target, OPTIONS)).isInstanceOfSatisfying(TransportException.class, e -> {
            assertThat(e.kind()).isEqualTo(Kind.UNREACHABLE);
            assertThat(e.getMessage())
                    .startsWith(lab.described("lab-2")
                            + "jump host fleetfix@127.0.0.9:22: connection refused by 127.0.0.9:22");
        });
    }

    private static boolean awaitGone(String host, String pattern) throws InterruptedException {
        return awaitNone(host, "pgrep -f " + ShellQuote.quote(pattern));
    }

    /** Whether {@code pgrep} (a command line) finds no process on {@code host} within a minute. */
    private static boolean awaitNone(String host, String pgrep) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (System.nanoTime() < deadline) {
            if (fleet.rootExec(host, pgrep).exitCode() == 1) {
                return true;
            }
            Thread.sleep(100);
        }
        return false;
    }

    private static String run(List<String> argv) throws Exception {
        Process process = new ProcessBuilder(argv).redirectErrorStream(true).start();
        String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor()).as(argv + ": " + out).isZero();
        return out;
    }
}
