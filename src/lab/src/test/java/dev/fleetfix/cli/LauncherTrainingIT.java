package dev.fleetfix.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The first start of a launcher (the release bundle's {@code bin/fleetfix}, the repository's {@code ./fleetfix})
 * trains a class-data sharing archive with an audit of hosts that do not answer. That audit must read nothing of the
 * user's: here the working directory's ansible.cfg and {@code ANSIBLE_SSH_ARGS} name a jump host, which listens, and
 * which the first start must not connect to. And the archive must still be made, holding SSHJ's client, which only an
 * attempt to connect loads. Runs after {@code mvn package} (the bundle and the jar); no Docker.
 */
class LauncherTrainingIT {
    private static final Path JAVA = Path.of(System.getProperty("java.home"), "bin", "java");

    @TempDir
    Path dir;

    /** The jump host the user's configuration names: it counts who connects. */
    private ServerSocket bastion;

    private Path work;

    @BeforeEach
    void userConfigurationNamesAJumpHost() throws IOException {
        bastion = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        work = Files.createDirectories(dir.resolve("work"));
        Files.writeString(
                work.resolve("ansible.cfg"),
                "[ssh_connection]\nssh_args = -o ProxyJump=127.0.0.1:" + bastion.getLocalPort() + "\n");
        Files.createDirectories(dir.resolve("home"));
    }

    @AfterEach
    void closeTheJumpHost() throws IOException {
        bastion.close();
    }

    private ProgramRun firstStart(Path launcher) {
        return start(launcher, dir.resolve("home"), List.of("--version"), false).expectSuccess();
    }

    /**
     * A start with {@code HOME} at {@code home}. With {@code printFlags}, {@code FLEETFIX_JAVA_OPTS} has the JVM print
     * its command-line flags first, so that stdout shows whether the launcher gave it {@code -XX:SharedArchiveFile}.
     */
    private ProgramRun start(Path launcher, Path home, List<String> args, boolean printFlags) {
        List<String> command = new ArrayList<>();
        command.add(launcher.toString());
        command.addAll(args);
        return ProgramRun.of(
                work,
                env -> {
                    env.keySet().removeIf(name -> name.startsWith("ANSIBLE_"));
                    env.remove("XDG_CACHE_HOME");
                    env.remove("FLEETFIX_JAVA_OPTS");
                    if (printFlags) {
                        env.put("FLEETFIX_JAVA_OPTS", "-XX:+PrintCommandLineFlags");
                    }
                    env.put("HOME", home.toString());
                    env.put("JAVA_HOME", System.getProperty("java.home"));
                    env.put("PATH", JAVA.getParent() + ":" + env.getOrDefault("PATH", "/usr/bin:/bin"));
                    // beats ansible.cfg's: a launcher that kept either would reach the jump host
                    env.put("ANSIBLE_SSH_ARGS", "-J 127.0.0.1:" + bastion.getLocalPort());
                },
                command);
    }

    /** The connections the jump host got: queued by the kernel, so they are there once the launcher has ended. */
    private List<String> bastionConnections() throws IOException {
        List<String> peers = new ArrayList<>();
        bastion.setSoTimeout(200);
        while (true) {
            try (Socket s = bastion.accept()) {
                peers.add(s.getRemoteSocketAddress().toString());
            } catch (SocketTimeoutException e) {
                return peers;
            }
        }
    }

    /** The classes of a start-up archive, as the JVM lists them. */
    private static String archivedClasses(Path archive, Path jar) {
        return ProgramRun.of(
                        archive.getParent(),
                        env -> {},
                        List.of(
                                JAVA.toString(),
                                "-XX:SharedArchiveFile=" + archive,
                                "-Xshare:on",
                                "-XX:TieredStopAtLevel=1",
                                "-XX:+UseSerialGC",
                                "-XX:+PrintSharedArchiveAndExit",
                                "-jar",
                                jar.toString()))
                .expectSuccess()
                .stdout();
    }

    private static String version() throws IOException {
        Properties props = new Properties();
        try (InputStream in = LauncherTrainingIT.class.getResourceAsStream("/dev/fleetfix/version.properties")) {
            assertThat(in)
                    .as("version.properties, written by Maven from the pom")
                    .isNotNull();
            props.load(in);
        }
        return props.getProperty("version");
    }

    @Test
    void theBundlesFirstStartTrainsWithoutReachingTheUsersJumpHost() throws IOException {
        String version = version();
        Path home = unpackedBundle();

        ProgramRun run = firstStart(home.resolve("bin/fleetfix"));

        assertThat(run.stdout()).as(run.toString()).startsWith("fleetfix " + version + "\n");
        assertThat(bastionConnections()).as(run.toString()).isEmpty();
        List<Path> archives;
        try (Stream<Path> files = Files.list(dir.resolve("home/.cache/fleetfix"))) {
            archives = files.filter(f -> f.toString().endsWith(".jsa")).toList();
        }
        assertThat(archives).as(run.toString()).hasSize(1);
        assertThat(archivedClasses(archives.get(0), home.resolve("lib/fleetfix.jar")))
                .contains("net.schmizz.sshj.SSHClient ")
                // picocli's classes are of Java 5's format, which the JVM's dynamic archive leaves out
                .contains("picocli.CommandLine ", "dev.fleetfix.cli.DurationConverter ");
    }

    /** A copy of the repository's launcher, with jars newer than its sources, so it does not build. */
    private Path repositoryCopy() throws IOException {
        Path repo = Files.createDirectories(dir.resolve("repo"));
        Path launcher = Files.copy(Path.of("fleetfix"), repo.resolve("fleetfix"));
        Files.setPosixFilePermissions(launcher, PosixFilePermissions.fromString("rwx------"));
        FileTime old = FileTime.from(Instant.parse("2000-01-01T00:00:00Z"));
        Files.setLastModifiedTime(Files.writeString(repo.resolve("pom.xml"), ""), old);
        for (String module : List.of("src/core", "src/cli", "src/lab")) {
            Path dir = Files.createDirectories(repo.resolve(module));
            Files.setLastModifiedTime(Files.writeString(dir.resolve("pom.xml"), ""), old);
            Files.setLastModifiedTime(Files.createDirectories(dir.resolve("src/main")), old);
        }
        for (String jar : List.of("src/cli/target/fleetfix.jar", "src/lab/target/fleetfix-lab.jar")) {
            Path copy = Files.copy(
                    Path.of(jar),
                    Files.createDirectories(repo.resolve(jar).getParent())
                            .resolve(Path.of(jar).getFileName()),
                    StandardCopyOption.COPY_ATTRIBUTES);
            Files.setLastModifiedTime(copy, FileTime.from(Instant.now()));
        }
        return repo;
    }

    @Test
    void theRepositorysFirstStartTrainsWithoutReachingTheUsersJumpHost() throws IOException {
        Path repo = repositoryCopy();
        Path launcher = repo.resolve("fleetfix");
        Path jar = repo.resolve("src/cli/target/fleetfix.jar");

        ProgramRun run = firstStart(launcher);

        assertThat(run.stderr()).as(run.toString()).contains("preparing the start-up archive");
        assertThat(run.stdout()).as(run.toString()).startsWith("fleetfix " + version() + "\n");
        assertThat(bastionConnections()).as(run.toString()).isEmpty();
        Path archive = repo.resolve("src/cli/target/fleetfix.jsa");
        assertThat(archive).as(run.toString()).isNotEmptyFile();
        assertThat(archivedClasses(archive, jar))
                .contains("net.schmizz.sshj.SSHClient ")
                // picocli's classes are of Java 5's format, which the JVM's dynamic archive leaves out
                .contains("picocli.CommandLine ", "dev.fleetfix.cli.DurationConverter ");
    }

    @Test
    void theJumpHostOfThisTestIsReachedByAnAuditThatReadsTheUsersConfiguration() throws IOException {
        // the same configuration, read by an ordinary audit of an unreachable host: it does reach the jump host,
        // so an empty list above means the training did not read it, not that the jump host cannot be reached
        Path knownHosts = Files.writeString(dir.resolve("known_hosts"), "");
        Path inventory = Files.writeString(
                dir.resolve("inventory.yml"),
                "all:\n  hosts:\n    ssh-1: {ansible_host: 127.0.0.1, ansible_port: 1, known_hosts_file: '" + knownHosts
                        + "'}\n");
        ProgramRun run = ProgramRun.of(
                work,
                env -> {
                    env.keySet().removeIf(name -> name.startsWith("ANSIBLE_"));
                    env.put("ANSIBLE_SSH_ARGS", "-J 127.0.0.1:" + bastion.getLocalPort());
                },
                List.of(
                        JAVA.toString(),
                        "-jar",
                        Path.of("src/cli/target/fleetfix.jar").toAbsolutePath().toString(),
                        "audit",
                        "-F",
                        "none",
                        "-i",
                        inventory.toString(),
                        "--connect-timeout",
                        "2s"));

        assertThat(bastionConnections()).as(run.toString()).isNotEmpty();
        assertThat(run.stdout()).as(run.toString()).contains("jump host 127.0.0.1:" + bastion.getLocalPort());
    }

    /** The release bundle, unpacked into this test's directory; its home. */
    private Path unpackedBundle() throws IOException {
        String version = version();
        Path bundle =
                Path.of("src/cli", "target", "fleetfix-" + version + ".tar.gz").toAbsolutePath();
        assertThat(bundle).as("mvn package builds the bundle").exists();
        ProgramRun.of(dir, env -> {}, List.of("tar", "-C", dir.toString(), "-xzf", bundle.toString()))
                .expectSuccess();
        return dir.resolve("fleetfix-" + version);
    }

    /** Gives {@code path} and all below it to nobody (65534), as another user's files are. */
    private static void giveToNobody(Path path) {
        ProgramRun.of(path.getParent(), env -> {}, List.of("chown", "-R", "65534:65534", path.toString()))
                .expectSuccess();
    }

    private static List<String> filesUnder(Path top) throws IOException {
        try (Stream<Path> files = Files.walk(top)) {
            return files.map(f -> top.relativize(f).toString()).sorted().toList();
        }
    }

    /** What this test runs as: the launcher must treat a file of another uid as someone else's. */
    private static void runningAsRoot() {
        ProgramRun id =
                ProgramRun.of(Path.of("."), env -> {}, List.of("id", "-u")).expectSuccess();
        assertThat(id.stdout().strip())
                .as("these tests run as root, as sudo with HOME kept does")
                .isEqualTo("0");
    }

    private void assertRanWithoutAnArchive(ProgramRun run, String refused) throws IOException {
        assertThat(run.exitCode()).as(run.toString()).isZero();
        assertThat(run.stdout())
                .as(run.toString())
                .contains("-XX:+PrintCommandLineFlags")
                .doesNotContain("SharedArchiveFile")
                .contains("fleetfix " + version());
        assertThat(run.stderr())
                .as(run.toString())
                .doesNotContain("preparing the start-up archive")
                .contains("fleetfix: start-up archive not used: " + refused);
    }

    @Test
    void theBundleRunAsRootWithAnotherUsersHomeNeitherMakesNorMapsAnArchiveThere() throws IOException {
        runningAsRoot();
        Path home = unpackedBundle();
        Path alice = Files.createDirectories(dir.resolve("alice/.cache/fleetfix"))
                .getParent()
                .getParent();
        giveToNobody(alice);
        List<String> before = filesUnder(alice);

        ProgramRun run = start(home.resolve("bin/fleetfix"), alice, List.of("-v", "--version"), true);

        assertRanWithoutAnArchive(run, alice.resolve(".cache/fleetfix").toString());
        assertThat(filesUnder(alice)).as(run.toString()).isEqualTo(before);
    }

    @Test
    void theBundleWithItsCacheLinkedToAnotherUsersDirectoryNeitherMakesNorMapsAnArchiveThere() throws IOException {
        runningAsRoot();
        Path home = unpackedBundle();
        Path elsewhere = Files.createDirectories(dir.resolve("elsewhere"));
        giveToNobody(elsewhere);
        Path cache = Files.createDirectories(dir.resolve("home/.cache"));
        Files.createSymbolicLink(cache.resolve("fleetfix"), elsewhere);

        ProgramRun run = start(home.resolve("bin/fleetfix"), dir.resolve("home"), List.of("-v", "--version"), true);

        assertRanWithoutAnArchive(run, cache.resolve("fleetfix").toString());
        assertThat(filesUnder(elsewhere)).as(run.toString()).containsExactly("");
    }

    @Test
    void theBundleWithItsOwnCacheMakesTheArchiveAndTheNextStartMapsIt() throws IOException {
        // the other side of the two tests above: where the cache is the user's, the flags do show the archive
        Path home = unpackedBundle();
        firstStart(home.resolve("bin/fleetfix"));

        ProgramRun run = start(home.resolve("bin/fleetfix"), dir.resolve("home"), List.of("-v", "--version"), true);

        assertThat(run.stdout()).as(run.toString()).contains("-XX:SharedArchiveFile=");
        assertThat(run.stderr()).as(run.toString()).doesNotContain("start-up archive not used");
    }

    @Test
    void theRepositoryRunAsRootInAnotherUsersCheckoutNeitherMakesNorMapsAnArchiveThere() throws IOException {
        runningAsRoot();
        Path repo = repositoryCopy();
        giveToNobody(repo);
        List<String> before = filesUnder(repo);

        ProgramRun run = start(repo.resolve("fleetfix"), dir.resolve("home"), List.of("-v", "--version"), true);

        assertRanWithoutAnArchive(run, repo.resolve("src/cli/target").toString());
        assertThat(filesUnder(repo)).as(run.toString()).isEqualTo(before);
    }

    @Test
    void bothLaunchersCheckTheCacheWithTheSameCode() throws IOException {
        assertBothLaunchersHoldTheSame("# --- private cache:", "# --- end of private cache ---");
    }

    @Test
    void bothLaunchersStartTheSameJvm() throws IOException {
        assertBothLaunchersHoldTheSame("# --- JVM options:", "# --- end of JVM options ---");
    }

    private static void assertBothLaunchersHoldTheSame(String begin, String end) throws IOException {
        List<String> blocks = new ArrayList<>();
        for (Path launcher : List.of(Path.of("fleetfix"), Path.of("src/cli/src/dist/bin/fleetfix"))) {
            String text = Files.readString(launcher);
            assertThat(text).as(launcher.toString()).contains(begin, end);
            blocks.add(text.substring(text.indexOf(begin), text.indexOf(end)));
        }
        assertThat(blocks.get(1)).as("the block from '%s' to '%s'", begin, end).isEqualTo(blocks.get(0));
    }
}
