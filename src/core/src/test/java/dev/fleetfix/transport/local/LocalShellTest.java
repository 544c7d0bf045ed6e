package dev.fleetfix.transport.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.fleetfix.fake.TestHosts;
import dev.fleetfix.transport.Command;
import dev.fleetfix.transport.ExecResult;
import dev.fleetfix.transport.TransportException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LocalShellTest {

    private final LocalShell shell = new LocalShell(TestHosts.local("localhost", true));

    @TempDir
    Path dir;

    @Test
    void returnsExitCodeStdoutAndStderr() {
        ExecResult result = shell.exec(Command.of("echo out; echo err >&2; exit 3"));

        assertThat(result.exitCode()).isEqualTo(3);
        assertThat(result.stdout()).isEqualTo("out\n");
        assertThat(result.stderr()).isEqualTo("err\n");
        assertThat(result.duration()).isPositive();
        assertThat(shell.hostName()).isEqualTo("localhost");
    }

    @Test
    void bigOutputOnBothStreamsDoesNotDeadlock() {
        // 2 MB on each stream: far beyond a pipe buffer, so reading them one after the other would hang.
        String script = "head -c 2000000 /dev/zero | tr '\\0' o; head -c 2000000 /dev/zero | tr '\\0' e >&2";

        ExecResult result = shell.exec(Command.of(script).withTimeout(Duration.ofSeconds(30)));

        // each stream keeps 512 KiB from its start and 512 KiB from its end
        assertThat(result.stdout()).startsWith("ooo").endsWith("ooo").contains("\n... 929 KB dropped ...\n");
        assertThat(result.stderr()).startsWith("eee").endsWith("eee").contains("\n... 929 KB dropped ...\n");
        assertThat(result.dropped()).isEqualTo(2 * (2_000_000 - 1_048_576));
    }

    @Test
    void gigabytesOfOutputAreReadThroughButOnlyHeadAndTailAreKept() {
        // kept whole, 1.5 GB took 5.2 GB RSS, then OutOfMemoryError; 300 MB shows the bound as well
        String script = "echo first line; head -c 300M /dev/zero | tr '\\0' x; echo; echo last line";

        ExecResult result = shell.exec(Command.of(script).withTimeout(Duration.ofSeconds(120)));

        assertThat(result.ok()).isTrue();
        assertThat(result.complete()).isFalse();
        assertThat(result.stdout().length()).isLessThan(1_100_000);
        assertThat(result.stdout()).startsWith("first line\n").endsWith("x\nlast line\n");
        assertThat(result.stdout()).contains("\n... 299 MB dropped ...\n");
    }

    @Test
    void timeoutKillsTheWholeProcessTree() throws Exception {
        Path pidFile = dir.resolve("child.pid");
        Command command =
                Command.of("sleep 300 & echo $! > " + pidFile + "; wait").withTimeout(Duration.ofMillis(700));

        long start = System.nanoTime();
        assertThatThrownBy(() -> shell.exec(command)).isInstanceOfSatisfying(TransportException.class, e -> {
            assertThat(e.kind()).isEqualTo(TransportException.Kind.TIMEOUT);
            assertThat(e.getMessage()).startsWith("host localhost (local): command timed out after 700ms: sleep 300");
        });
        // a shell that waited for the child holding its output would take the child's 300 s; a loaded machine's
        // kill a few seconds at most
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(60));

        long child = Long.parseLong(Files.readString(pidFile).strip());
        Optional<ProcessHandle> handle = ProcessHandle.of(child);
        if (handle.isPresent()) {
            handle.get().onExit().get(30, TimeUnit.SECONDS); // killed: at once, or within a loaded machine's while
        }
        assertThat(ProcessHandle.of(child).map(ProcessHandle::isAlive)).isNotEqualTo(Optional.of(true));
    }

    @Test
    void becomeAsRootRunsWithoutSudo() {
        LocalShell asRoot = new LocalShell(TestHosts.local("localhost", true), true);

        assertThat(asRoot.argv("id -u", true, Duration.ofSeconds(5))).isEqualTo(List.of("sh", "-c", "id -u"));
    }

    @Test
    void becomeAsOtherUserGoesThroughSudoNonInteractive() {
        LocalShell asUser = new LocalShell(TestHosts.local("localhost", true), false);

        assertThat(asUser.argv("id -u", true, Duration.ofMillis(4500)))
                .isEqualTo(List.of("sudo", "-n", "timeout", "-s", "KILL", "6", "sh", "-c", "id -u"));
        assertThat(asUser.argv("id -u", false, Duration.ofSeconds(5))).isEqualTo(List.of("sh", "-c", "id -u"));
    }

    @Test
    void hostWithoutBecomeNeverUsesSudo() {
        LocalShell noBecome = new LocalShell(TestHosts.local("localhost", false), false);

        assertThat(noBecome.argv("id -u", true, Duration.ofSeconds(5))).isEqualTo(List.of("sh", "-c", "id -u"));
    }

    @Test
    void becomeRunsAsRootWhenWeAreRoot() {
        ExecResult result = shell.exec(Command.of("id -u").asRoot());

        // The build runs as root on the CI machines; as another user this needs passwordless sudo.
        assertThat(result.stdout().strip()).isEqualTo("0");
    }

    @Test
    void putWritesTheFileWithItsModeAndReplacesItAtomically() throws Exception {
        Path target = dir.resolve("sub dir").resolve("thp.conf");
        Files.createDirectories(target.getParent());
        Files.writeString(target, "old");

        shell.put(target.toString(), "never\n".getBytes(), 0640, false);

        assertThat(target).hasContent("never");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(target)))
                .isEqualTo("rw-r-----");
        try (var files = Files.list(target.getParent())) {
            assertThat(files).containsExactly(target);
        }
    }

    @Test
    void putIntoAMissingDirectoryFailsNamingThePath() {
        String target = dir.resolve("missing").resolve("x").toString();

        assertThatThrownBy(() -> shell.put(target, new byte[] {1}, 0644, false))
                .isInstanceOf(TransportException.class)
                .hasMessageContaining("writing " + target + " failed");
    }
}
