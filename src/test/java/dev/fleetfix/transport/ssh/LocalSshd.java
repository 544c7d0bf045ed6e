package dev.fleetfix.transport.ssh;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A real OpenSSH sshd started from the system's {@code /usr/sbin/sshd} on a loopback address, with
 * its own host key, authorized_keys and config in a temporary directory. Logs in as the user
 * running the tests.
 */
final class LocalSshd implements AutoCloseable {

    static final Path SSHD = Path.of("/usr/sbin/sshd");

    private final Path dir;
    private final String address;
    private final int port;
    private final Process process;

    private LocalSshd(Path dir, String address, int port, Process process) {
        this.dir = dir;
        this.address = address;
        this.port = port;
        this.process = process;
    }

    static LocalSshd start(Path dir, String address, int port) throws Exception {
        if (!Files.isExecutable(SSHD)) {
            throw new IllegalStateException(SSHD + " is missing: install openssh-server to run the SSH tests");
        }
        keygen(dir.resolve("host_ed25519"), "ed25519");
        keygen(dir.resolve("id_ed25519"), "ed25519");
        Files.copy(dir.resolve("id_ed25519.pub"), dir.resolve("authorized_keys"));
        Files.writeString(
                dir.resolve("sshd_config"),
                String.join(
                        "\n",
                        "HostKey " + dir.resolve("host_ed25519"),
                        "AuthorizedKeysFile " + dir.resolve("authorized_keys"),
                        "PidFile none",
                        "StrictModes no",
                        "UsePAM no",
                        "PasswordAuthentication no",
                        "KbdInteractiveAuthentication no",
                        "PermitRootLogin prohibit-password",
                        "AllowTcpForwarding yes",
                        "MaxStartups 100",
                        ""));
        // Privilege separation wants this directory to exist, even when sshd runs as root.
        Files.createDirectories(Path.of("/run/sshd"));
        Process process = new ProcessBuilder(
                        SSHD.toString(),
                        "-D",
                        "-e",
                        "-f",
                        dir.resolve("sshd_config").toString(),
                        "-o",
                        "ListenAddress=" + address,
                        "-p",
                        String.valueOf(port))
                .redirectErrorStream(true)
                .redirectOutput(dir.resolve("sshd.log").toFile())
                .start();
        LocalSshd sshd = new LocalSshd(dir, address, port, process);
        sshd.awaitListening(Duration.ofSeconds(10));
        return sshd;
    }

    private void awaitListening(Duration timeout) throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IllegalStateException("sshd exited: " + Files.readString(dir.resolve("sshd.log")));
            }
            if (Files.readString(dir.resolve("sshd.log")).contains("Server listening")) {
                return;
            }
            Thread.sleep(50);
        }
        throw new IllegalStateException("sshd did not start listening: " + Files.readString(dir.resolve("sshd.log")));
    }

    static void keygen(Path file, String type, String... extra) throws Exception {
        List<String> argv =
                new ArrayList<>(List.of("ssh-keygen", "-q", "-t", type, "-f", file.toString(), "-C", "test"));
        if (List.of(extra).contains("-N")) {
            argv.addAll(List.of(extra));
        } else {
            argv.addAll(List.of("-N", ""));
            argv.addAll(List.of(extra));
        }
        run(argv);
    }

    static String run(List<String> argv) throws Exception {
        Process p = new ProcessBuilder(argv).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        if (!p.waitFor(30, TimeUnit.SECONDS) || p.exitValue() != 0) {
            throw new IllegalStateException(argv + " failed: " + out);
        }
        return out;
    }

    String address() {
        return address;
    }

    int port() {
        return port;
    }

    String user() {
        return System.getProperty("user.name");
    }

    Path privateKey() {
        return dir.resolve("id_ed25519");
    }

    Path hostPublicKey() {
        return dir.resolve("host_ed25519.pub");
    }

    /** Lets another key log in. */
    void authorize(Path publicKey) throws IOException {
        Files.writeString(
                dir.resolve("authorized_keys"), Files.readString(publicKey), java.nio.file.StandardOpenOption.APPEND);
    }

    /** A known_hosts file holding this sshd's key, as {@code ssh-keyscan} would write it. */
    Path knownHosts(Path file) throws IOException {
        String[] key = Files.readString(hostPublicKey()).strip().split(" ");
        String entry = port == 22 ? address : "[" + address + "]:" + port;
        Files.writeString(file, entry + " " + key[0] + " " + key[1] + "\n");
        return file;
    }

    @Override
    public void close() throws Exception {
        process.destroy();
        if (!process.waitFor(5, TimeUnit.SECONDS)) {
            process.destroyForcibly();
        }
    }
}
