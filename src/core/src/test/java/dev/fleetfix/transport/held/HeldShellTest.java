package dev.fleetfix.transport.held;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.fleetfix.fake.RecordingShell;
import dev.fleetfix.fake.TestHosts;
import dev.fleetfix.inventory.Host;
import dev.fleetfix.transport.Command;
import dev.fleetfix.transport.ExecResult;
import dev.fleetfix.transport.RemoteShell;
import dev.fleetfix.transport.ShellFactory;
import dev.fleetfix.transport.SshOptions;
import dev.fleetfix.transport.TransportException;
import dev.fleetfix.transport.TransportException.Kind;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The run's side and the holder over a real Unix socket, the holder in this process with recording shells in place
 * of SSH (the lab test HeldConnectionsIT drives the real one against sshd).
 */
class HeldShellTest {
    private static final SshOptions OPTIONS = SshOptions.defaults();

    @TempDir
    Path dir;

    private final Map<String, RecordingShell> shells = new ConcurrentHashMap<>();
    private final AtomicInteger logins = new AtomicInteger();
    /** The logins the holder was asked to make, as it read them off the socket. */
    private final List<HoldLogin> loggedIn = new CopyOnWriteArrayList<>();

    private final List<String> warnings = new CopyOnWriteArrayList<>();
    /** Whether held connections answer the holder's question before it gives them out again. */
    private final java.util.concurrent.atomic.AtomicBoolean answering =
            new java.util.concurrent.atomic.AtomicBoolean(true);

    private Holder holder;
    private Thread serving;

    private HoldPlace place() {
        return new HoldPlace(dir.resolve("hold"), System.getProperty("user.name"));
    }

    /** Starts a holder whose logins give recording shells; {@code refuse} names a host whose key is refused. */
    private void startHolder(Duration persist, String refuse) throws Exception {
        startHolder(persist, refuse, line -> {});
    }

    private void startHolder(Duration persist, String refuse, Consumer<String> log) throws Exception {
        place().prepare();
        holder = Holder.bind(
                place().socket(),
                persist,
                login -> {
                    if (login.host().name().equals(refuse)) {
                        throw new TransportException(login.host(), Kind.AUTH, "permission denied (publickey)", null);
                    }
                    logins.incrementAndGet();
                    loggedIn.add(login);
                    RecordingShell shell = shells.computeIfAbsent(
                            login.host().name(),
                            name -> RecordingShell.answering(
                                    name,
                                    c -> new ExecResult(0, name + " ran " + c.script(), "", Duration.ofMillis(3))));
                    return new Holder.Opened(shell, List.of(trustFile()), within -> answering.get());
                },
                log);
        serving = new Thread(holder::serve, "test-holder");
        serving.start();
    }

    /** The holder's threads serving runs, of this test's holders (an earlier test's may still be in a command). */
    private Set<Thread> holderThreads() {
        Set<Thread> threads = new HashSet<>(Thread.getAllStackTraces().keySet());
        threads.removeIf(t -> !t.getName().equals("holder-client") || !t.isAlive() || earlierThreads.contains(t));
        return threads;
    }

    private final Set<Thread> earlierThreads =
            new HashSet<>(Thread.getAllStackTraces().keySet());

    /** The file the holder's logins are trusted by, as a login's known_hosts file. */
    private Path trustFile() {
        return dir.resolve("known_hosts");
    }

    @AfterEach
    void stopHolder() throws Exception {
        if (holder != null) {
            holder.stop();
            serving.join(5_000);
            holder = null;
            // A run's socket is released when the holder's thread blocked reading it leaves its read, just after
            // stop() returns; until then a run's write still lands (and is a command sent, never resent). Tests
            // that go on after a stop wait for that, as a run arriving later would find.
            long deadline = System.nanoTime() + Duration.ofSeconds(2).toNanos();
            while (!holderThreads().isEmpty() && System.nanoTime() < deadline) {
                Thread.sleep(5);
            }
        }
    }

    /** A run's factory: through the holder, falling back to a direct factory that fails the test if used. */
    private ShellFactory run() {
        return run(Duration.ofMinutes(1));
    }

    /** A run that asks for connections to be held {@code persist} after it. */
    private ShellFactory run(Duration persist) {
        return run(persist, OPTIONS);
    }

    /** A run with these SSH options. */
    private ShellFactory run(Duration persist, SshOptions options) {
        HoldClient client = new HoldClient(place(), persist, List.of("false"));
        ShellFactory direct = host -> {
            throw new AssertionError("connected directly to " + host.name());
        };
        return new HeldShells(client, warnings::add).around(options, direct);
    }

    @Test
    void theSecondRunUsesTheConnectionTheFirstLeftWithoutLoggingInAgain() throws Exception {
        startHolder(Duration.ofMinutes(1), "");
        Host host = TestHosts.lab("lab-1", "127.0.0.11");
        try (RemoteShell first = run().open(host)) {
            assertThat(first.exec(Command.of("uname")).stdout()).isEqualTo("lab-1 ran uname");
            assertThat(((HeldShell) first).reused()).isFalse();
        }
        try (RemoteShell second = run().open(host)) {
            ExecResult r = second.exec(Command.of("cat /sys/kernel/mm/transparent_hugepage/enabled")
                    .asRoot());
            assertThat(r.stdout()).isEqualTo("lab-1 ran cat /sys/kernel/mm/transparent_hugepage/enabled");
            assertThat(r.duration()).isEqualTo(Duration.ofMillis(3));
            assertThat(((HeldShell) second).reused()).isTrue();
        }
        assertThat(logins).hasValue(1);
        assertThat(shells.get("lab-1").commands())
                .extracting(Command::script, Command::become)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple("uname", false),
                        org.assertj.core.groups.Tuple.tuple("cat /sys/kernel/mm/transparent_hugepage/enabled", true));
        assertThat(shells.get("lab-1").closed())
                .as("held, not closed, between runs")
                .isFalse();
        assertThat(warnings).isEmpty();
    }

    @Test
    void anotherLoginToTheSameAddressGetsItsOwnConnection() throws Exception {
        startHolder(Duration.ofMinutes(1), "");
        Host asFleetfix = TestHosts.lab("lab-1", "127.0.0.11");
        Host asRoot = asFleetfix.toBuilder().user(java.util.Optional.of("root")).build();
        run().open(asFleetfix).close();
        run().open(asRoot).close();
        run().open(asFleetfix).close();
        assertThat(logins)
                .as("fleetfix@, root@, then fleetfix@ again from the holder")
                .hasValue(2);
    }

    @Test
    void theHolderLogsInWithTheSshConfigsCertificateFilesAsADirectLoginWould() throws Exception {
        startHolder(Duration.ofMinutes(1), "");
        Host host = TestHosts.lab("lab-1", "127.0.0.11");
        Path cert = dir.resolve("ca-issued-cert.pub");
        SshOptions withCert = OPTIONS.withCertificateFiles(List.of(cert));

        run(Duration.ofMinutes(1), withCert).open(host).close();
        run(Duration.ofMinutes(1), withCert).open(host).close();
        run().open(host).close();

        assertThat(loggedIn)
                .extracting(login -> login.options().certificateFiles())
                .as("the certificate's run logs in once with it; a run without it gets its own connection")
                .containsExactly(List.of(cert), List.of());
    }

    @Test
    void aRefusedLoginIsTheSameFailureAsADirectOneAndIsTriedAgainNextTime() throws Exception {
        startHolder(Duration.ofMinutes(1), "lab-2");
        Host host = TestHosts.lab("lab-2", "127.0.0.12");
        for (int attempt = 0; attempt < 2; attempt++) {
            assertThatThrownBy(() -> run().open(host)).isInstanceOfSatisfying(TransportException.class, e -> {
                assertThat(e.kind()).isEqualTo(Kind.AUTH);
                assertThat(e.sent()).isFalse();
                assertThat(e.host()).isEqualTo("lab-2");
                assertThat(e.getMessage()).isEqualTo("host lab-2 (127.0.0.12:22): permission denied (publickey)");
            });
        }
        assertThat(warnings).as("a refused login is not the holder's failure").isEmpty();
    }

    @Test
    void commandsOfOneHostRunSideBySide() throws Exception {
        startHolder(Duration.ofMinutes(1), "");
        CountDownLatch allIn = new CountDownLatch(4);
        Host host = TestHosts.lab("lab-1", "127.0.0.11");
        shells.put("lab-1", RecordingShell.answering("lab-1", c -> {
            allIn.countDown();
            try {
                // returns only once all four commands are running at once
                return allIn.await(10, TimeUnit.SECONDS) ? RecordingShell.ok("together") : RecordingShell.ok("alone");
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        }));
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try (RemoteShell shell = run().open(host)) {
            List<Future<ExecResult>> results = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                results.add(pool.submit(() -> shell.exec(Command.of("sleep"))));
            }
            for (Future<ExecResult> r : results) {
                assertThat(r.get(20, TimeUnit.SECONDS).stdout()).isEqualTo("together");
            }
        } finally {
            pool.shutdownNow();
        }
        assertThat(logins).hasValue(1);
    }

    @Test
    void filesTravelWholeWithTheirModeAndBecome() throws Exception {
        startHolder(Duration.ofMinutes(1), "");
        byte[] content = new byte[300_000];
        for (int i = 0; i < content.length; i++) {
            content[i] = (byte) i;
        }
        try (RemoteShell shell = run().open(TestHosts.lab("lab-1", "127.0.0.11"))) {
            shell.put("/etc/systemd/system/fleetfix-thp.service", content, 0644, true);
        }
        RecordingShell.Put put = shells.get("lab-1").puts().get(0);
        assertThat(put.path()).isEqualTo("/etc/systemd/system/fleetfix-thp.service");
        assertThat(put.content()).isEqualTo(content);
        assertThat(put.mode()).isEqualTo(0644);
        assertThat(put.become()).isTrue();
    }

    @Test
    void aFailedCommandComesBackAsTheHoldersShellGaveIt() throws Exception {
        startHolder(Duration.ofMinutes(1), "");
        shells.put("lab-1", RecordingShell.answering("lab-1", c -> {
            throw TransportException.afterSending("lab-1", Kind.TIMEOUT, "command timed out after 5s", null);
        }));
        try (RemoteShell shell = run().open(TestHosts.lab("lab-1", "127.0.0.11"))) {
            assertThatThrownBy(() -> shell.exec(Command.of("sleep 10")))
                    .isInstanceOfSatisfying(TransportException.class, e -> {
                        assertThat(e.kind()).isEqualTo(Kind.TIMEOUT);
                        assertThat(e.sent()).isTrue();
                        assertThat(e.getMessage()).isEqualTo("host lab-1: command timed out after 5s");
                    });
            // the socket stays usable after a failure
            shells.put("lab-1", RecordingShell.printing("lab-1", "fine"));
        }
    }

    @Test
    void aHolderGoneBetweenCommandsIsReplacedAndNothingWasSentTwice() throws Exception {
        startHolder(Duration.ofMinutes(1), "");
        Host host = TestHosts.lab("lab-1", "127.0.0.11");
        try (RemoteShell shell = run().open(host)) {
            shell.exec(Command.of("first"));
            stopHolder();
            // nothing answers now: the command is not sent, and says so
            assertThatThrownBy(() -> shell.exec(Command.of("second")))
                    .isInstanceOfSatisfying(TransportException.class, e -> {
                        assertThat(e.kind()).isEqualTo(Kind.BROKEN);
                        assertThat(e.sent()).isFalse();
                        assertThat(e.getMessage())
                                .startsWith("host lab-1 (127.0.0.11:22): the connection holder could not be reached"
                                        + " before 'second'");
                    });
            startHolder(Duration.ofMinutes(1), "");
            assertThat(shell.exec(Command.of("third")).stdout()).isEqualTo("lab-1 ran third");
        }
        assertThat(shells.get("lab-1").scripts()).containsExactly("first", "third");
        assertThat(logins).as("the new holder logs in").hasValue(2);
    }

    @Test
    void aHolderStoppedWhileACommandRunsFailsItAsBrokenAfterSending() throws Exception {
        startHolder(Duration.ofMinutes(1), "");
        CountDownLatch running = new CountDownLatch(1);
        shells.put("lab-1", RecordingShell.answering("lab-1", c -> {
            running.countDown();
            try {
                Thread.sleep(10_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return RecordingShell.ok("late");
        }));
        try (RemoteShell shell = run().open(TestHosts.lab("lab-1", "127.0.0.11"))) {
            Thread stopper = new Thread(() -> {
                try {
                    running.await();
                    holder.stop();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            stopper.start();
            assertThatThrownBy(() -> shell.exec(Command.of("sleep 10 && touch /tmp/slept")))
                    .isInstanceOfSatisfying(TransportException.class, e -> {
                        assertThat(e.kind()).isEqualTo(Kind.BROKEN);
                        assertThat(e.sent())
                                .as("it may have run: never sent again")
                                .isTrue();
                        assertThat(e.getMessage())
                                .contains("the connection holder went away while 'sleep 10 && touch /tmp/slept' ran");
                    });
            stopper.join();
        }
        assertThat(shells.get("lab-1").scripts()).containsExactly("sleep 10 && touch /tmp/slept");
    }

    @Test
    void anIdleHolderClosesItsConnectionsAndRemovesItsSocket() throws Exception {
        // started for a minute; the run's own ControlPersist, 300 ms, is what counts
        startHolder(Duration.ofMinutes(1), "");
        run(Duration.ofMillis(300)).open(TestHosts.lab("lab-1", "127.0.0.11")).close();
        serving.join(15_000);
        assertThat(serving.isAlive()).as("the holder still serves").isFalse();
        assertThat(place().socket()).doesNotExist();
        assertThat(shells.get("lab-1").closed()).isTrue();
    }

    @Test
    void aRunThatComesAsTheHolderDecidesToExitIsNotGreetedAndThenCutOff() throws Exception {
        CountDownLatch deciding = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        // the holder's idle exit is held where it has decided and says so, before it stops
        startHolder(Duration.ofMillis(1), "", line -> {
            if (line.contains("no run for")) {
                deciding.countDown();
                try {
                    release.await(10, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        });
        assertThat(deciding.await(10, TimeUnit.SECONDS))
                .as("the holder decides to exit")
                .isTrue();

        HoldClient client = new HoldClient(place(), Duration.ofMinutes(1), List.of("false"));
        ExecutorService pool = Executors.newSingleThreadExecutor();
        try {
            Future<Optional<HoldClient.Socket>> greeting = pool.submit(client::tryConnect);
            try {
                greeting.get(300, TimeUnit.MILLISECONDS); // a holder that admits it greets it at once
            } catch (TimeoutException e) {
                // held at the door until the exit is done
            }
            release.countDown();
            serving.join(5_000);
            Optional<HoldClient.Socket> greeted = greeting.get(5, TimeUnit.SECONDS);
            // greeted, it would take the run's next command and then lose its socket to the exit under way
            greeted.ifPresent(HoldClient.Socket::close);
            assertThat(greeted).as("a run greeted by a holder that is exiting").isEmpty();
            assertThat(place().socket()).doesNotExist();
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void aHolderThatCannotStartIsSaidOnceAndTheRunConnectsDirectly() throws Exception {
        HoldClient client = new HoldClient(place(), Duration.ofMinutes(1), List.of("false"));
        List<String> direct = new ArrayList<>();
        ShellFactory factory = new HeldShells(client, warnings::add).around(OPTIONS, host -> {
            direct.add(host.name());
            return RecordingShell.printing(host.name(), "direct");
        });
        assertThat(factory.open(TestHosts.lab("lab-1", "127.0.0.11"))
                        .exec(Command.of("x"))
                        .stdout())
                .isEqualTo("direct");
        factory.open(TestHosts.lab("lab-2", "127.0.0.12"));
        assertThat(direct).containsExactly("lab-1", "lab-2");
        assertThat(warnings)
                .singleElement()
                .asString()
                .startsWith("held connections are off for this run (the holder did not start (exit 1); see ")
                .endsWith("): connecting directly");
    }

    /**
     * A run decides from the files as they are: a known_hosts line removed, or a key file gone, would make a direct
     * login fail, so a connection opened under the old files is not given out; the holder logs in again.
     */
    @Test
    void aConnectionWhoseKnownHostsOrKeyFileChangedIsNotReusedButLoggedInAgain() throws Exception {
        Files.writeString(trustFile(), "127.0.0.11 ssh-ed25519 AAAA\n127.0.0.12 ssh-ed25519 BBBB\n");
        startHolder(Duration.ofMinutes(1), "");
        Host host = TestHosts.lab("lab-1", "127.0.0.11");
        try (RemoteShell first = run().open(host)) {
            first.exec(Command.of("uname"));
        }
        try (RemoteShell second = run().open(host)) {
            assertThat(((HeldShell) second).reused()).as("nothing changed").isTrue();
        }
        RecordingShell before = shells.get("lab-1");

        Files.writeString(trustFile(), "127.0.0.12 ssh-ed25519 BBBB\n"); // ssh-keygen -R 127.0.0.11
        try (RemoteShell third = run().open(host)) {
            assertThat(((HeldShell) third).reused()).isFalse();
            assertThat(third.exec(Command.of("uname")).stdout()).isEqualTo("lab-1 ran uname");
        }
        assertThat(logins).hasValue(2);
        assertThat(before.closed())
                .as("the connection opened under the old file is closed")
                .isTrue();

        // an edit in place that keeps the size and sets the modification time back is seen too (the change time)
        java.nio.file.attribute.FileTime modified = Files.getLastModifiedTime(trustFile());
        Files.writeString(trustFile(), "127.0.0.12 ssh-ed25519 CCCC\n");
        Files.setLastModifiedTime(trustFile(), modified);
        try (RemoteShell edited = run().open(host)) {
            assertThat(((HeldShell) edited).reused()).isFalse();
        }
        assertThat(logins).hasValue(3);

        Files.delete(trustFile()); // gone: the login is tried again, and fails or not as a direct one would
        try (RemoteShell fourth = run().open(host)) {
            assertThat(((HeldShell) fourth).reused()).isFalse();
        }
        try (RemoteShell fifth = run().open(host)) {
            assertThat(((HeldShell) fifth).reused())
                    .as("still gone: as it was at the last login")
                    .isTrue();
        }
        assertThat(logins).hasValue(4);
    }

    /** A connection dropped without a word (a firewall's idle timeout) is not given to a run: it is made again. */
    @Test
    void aHeldConnectionThatNoLongerAnswersIsMadeAgainBeforeARunGetsIt() throws Exception {
        startHolder(Duration.ofMinutes(1), "");
        Host host = TestHosts.lab("lab-1", "127.0.0.11");
        try (RemoteShell first = run().open(host)) {
            first.exec(Command.of("uname"));
        }
        RecordingShell before = shells.get("lab-1");
        answering.set(false);
        try (RemoteShell second = run().open(host)) {
            assertThat(((HeldShell) second).reused()).isFalse();
            assertThat(second.exec(Command.of("uname")).stdout()).isEqualTo("lab-1 ran uname");
        }
        assertThat(logins).hasValue(2);
        assertThat(before.closed()).isTrue();
    }

    /** A link at the socket's path may lead anywhere, to another user's socket among others: it is not followed. */
    @Test
    void aLinkInPlaceOfTheSocketIsNotFollowed() throws Exception {
        startHolder(Duration.ofMinutes(1), "");
        Path moved = place().directory().resolve("real.sock");
        Files.move(place().socket(), moved);
        Files.createSymbolicLink(place().socket(), moved);
        ShellFactory factory = new HeldShells(
                        new HoldClient(place(), Duration.ofMinutes(1), List.of("false")), warnings::add)
                .around(OPTIONS, host -> RecordingShell.printing(host.name(), "direct"));

        assertThat(factory.open(TestHosts.lab("lab-1", "127.0.0.11"))
                        .exec(Command.of("x"))
                        .stdout())
                .isEqualTo("direct");
        assertThat(logins)
                .as("the holder behind the link was never asked to log in")
                .hasValue(0);
        assertThat(warnings).singleElement().asString().contains("hold.sock is a symbolic link; remove it");
    }

    /** Our directory inside one others may write could be replaced between the check and the connect. */
    @Test
    void aPlaceInADirectoryOthersMayWriteIsRefused() throws Exception {
        Path shared = Files.createDirectories(dir.resolve("shared"));
        Files.setPosixFilePermissions(shared, PosixFilePermissions.fromString("rwxrwxrwx"));
        HoldPlace place = new HoldPlace(shared.resolve("fleetfix"), System.getProperty("user.name"));

        assertThatThrownBy(place::prepare)
                .hasMessageContaining("another user could replace fleetfix there; set XDG_RUNTIME_DIR to a directory"
                        + " of your own");
        assertThat(place.directory()).doesNotExist();

        // higher up too: a directory of ours inside one others may write could itself be swapped for theirs
        Path inner = Files.createDirectory(
                shared.resolve("inner"),
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        HoldPlace deeper = new HoldPlace(inner.resolve("fleetfix"), System.getProperty("user.name"));
        assertThatThrownBy(deeper::prepare)
                .hasMessageContaining(shared + " (above " + deeper.directory() + ") belongs to ")
                .hasMessageContaining("with mode 777");
        assertThat(deeper.directory()).doesNotExist();
    }

    @Test
    void aPlaceOthersCanOpenIsRefused() throws Exception {
        Files.createDirectories(place().directory());
        Files.setPosixFilePermissions(place().directory(), PosixFilePermissions.fromString("rwxr-xr-x"));
        assertThatThrownBy(() -> place().prepare())
                .hasMessage(place().directory() + " has mode rwxr-xr-x, not rwx------; chmod 700 it");
        ShellFactory factory = new HeldShells(
                        new HoldClient(place(), Duration.ofMinutes(1), List.of("false")), warnings::add)
                .around(OPTIONS, host -> RecordingShell.printing(host.name(), "direct"));
        factory.open(TestHosts.lab("lab-1", "127.0.0.11"));
        assertThat(warnings).singleElement().asString().contains("chmod 700 it");
        assertThat(place().socket()).doesNotExist();
    }

    /** A socket in a directory others may write could be theirs: the run must not hand it a passphrase. */
    @Test
    void aHolderInAPlaceOthersCanOpenIsNotAskedAnything() throws Exception {
        startHolder(Duration.ofMinutes(1), "");
        Files.setPosixFilePermissions(place().directory(), PosixFilePermissions.fromString("rwxrwxrwx"));
        try {
            ShellFactory factory = new HeldShells(
                            new HoldClient(place(), Duration.ofMinutes(1), List.of("false")), warnings::add)
                    .around(OPTIONS, host -> RecordingShell.printing(host.name(), "direct"));
            assertThat(factory.open(TestHosts.lab("lab-1", "127.0.0.11"))
                            .exec(Command.of("x"))
                            .stdout())
                    .isEqualTo("direct");
            assertThat(logins).as("the holder there was never asked to log in").hasValue(0);
            assertThat(warnings).singleElement().asString().contains("not rwx------; chmod 700 it");
        } finally {
            Files.setPosixFilePermissions(place().directory(), PosixFilePermissions.fromString("rwx------"));
        }
    }

    @Test
    void theHoldPlaceIsTheRuntimeDirectoryElseOneOfTheUsersOwnInTmp() {
        Path runtime = dir.resolve("run-user-1000");
        runtime.toFile().mkdirs();
        String me = System.getProperty("user.name");
        assertThat(HoldPlace.of(Map.of("XDG_RUNTIME_DIR", runtime.toString()), me, Path.of("/tmp"))
                        .socket())
                .isEqualTo(runtime.resolve("fleetfix/hold.sock"));
        // another user's runtime directory (su without -): not ours to hold a socket in
        assertThat(HoldPlace.of(Map.of("XDG_RUNTIME_DIR", runtime.toString()), "ops", Path.of("/tmp"))
                        .directory())
                .isEqualTo(Path.of("/tmp/fleetfix-ops"));
        assertThat(HoldPlace.of(Map.of(), "ops", Path.of("/tmp")).socket())
                .isEqualTo(Path.of("/tmp/fleetfix-ops/hold.sock"));
        assertThat(HoldPlace.of(Map.of("XDG_RUNTIME_DIR", dir.resolve("gone").toString()), "ops", Path.of("/tmp"))
                        .directory())
                .isEqualTo(Path.of("/tmp/fleetfix-ops"));
    }
}
