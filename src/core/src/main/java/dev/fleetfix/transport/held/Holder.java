package dev.fleetfix.transport.held;

import dev.fleetfix.FleetfixVersion;
import dev.fleetfix.transport.ExecResult;
import dev.fleetfix.transport.RemoteShell;
import dev.fleetfix.transport.TransportException;
import dev.fleetfix.transport.TransportException.Kind;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.Closeable;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.Channels;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import jdk.net.ExtendedSocketOptions;
import jdk.net.UnixDomainPrincipal;

/**
 * The connection holder: one process per user that keeps a shell per login and runs the commands runs send it over
 * its Unix socket. It answers only its own user (the socket's peer credentials), keeps passphrases in memory only,
 * and stops, closing every connection and removing its socket, once no run has been connected for the persist time.
 * The SSH adapter's {@code SshHolder} is its process; tests run it in theirs with shells of their own.
 */
public final class Holder {
    /** Logs in as a run would; a refused login is its {@link TransportException}. */
    @FunctionalInterface
    public interface Opener {
        Opened open(HoldLogin login);
    }

    /**
     * A login's shell and the files of the control node its trust rested on when it was opened (the known_hosts file,
     * the key files). A later run is given the shell only while each of them is as it was: a line removed from
     * known_hosts or a key file gone would make a direct login fail, so the holder logs in again, and fails the same.
     */
    public record Opened(RemoteShell shell, List<Path> trust, Liveness liveness) {
        public Opened {
            Objects.requireNonNull(shell, "shell");
            trust = List.copyOf(trust);
            Objects.requireNonNull(liveness, "liveness");
        }
    }

    /**
     * Whether a held connection still answers, asked before a run is given it: one a firewall dropped silently would
     * take the run's first command and never answer, and a command that timed out is never sent again.
     */
    @FunctionalInterface
    public interface Liveness {
        boolean respondsWithin(Duration within);
    }

    private final Opener opener;
    private final Consumer<String> log;
    private final Path socket;
    private final Object socketKey;
    private final ServerSocketChannel server;
    private final Map<HoldLogin, HeldConnection> held = new ConcurrentHashMap<>();
    /** The runs' sockets: a holder with none is idle. */
    private final Set<SocketChannel> open = ConcurrentHashMap.newKeySet();

    private final String user = System.getProperty("user.name");
    private volatile Duration persist;
    private volatile long idleSince = System.nanoTime();
    private volatile boolean stopping;

    private Holder(Path socket, ServerSocketChannel server, Duration persist, Opener opener, Consumer<String> log)
            throws IOException {
        this.log = log;
        this.socket = socket;
        this.socketKey = fileKey(socket);
        this.server = server;
        this.persist = persist;
        this.opener = opener;
    }

    /** Listens on {@code socket} (mode 0600); a stale socket file of a holder that died is removed first. */
    public static Holder bind(Path socket, Duration persist, Opener opener) throws IOException {
        return bind(socket, persist, opener, System.err::println);
    }

    /** As {@link #bind(Path, Duration, Opener)}, its log lines going to {@code log} (its file is its stderr). */
    static Holder bind(Path socket, Duration persist, Opener opener, Consumer<String> log) throws IOException {
        Files.deleteIfExists(socket);
        ServerSocketChannel server = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
        server.bind(UnixDomainSocketAddress.of(socket));
        Files.setPosixFilePermissions(socket, PosixFilePermissions.fromString("rw-------"));
        return new Holder(socket, server, persist, opener, log);
    }

    /** Serves runs until idle for the persist time, or stopped; then every held shell is closed. */
    public void serve() {
        ScheduledExecutorService idle = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "holder-idle");
            t.setDaemon(true);
            return t;
        });
        idle.scheduleWithFixedDelay(this::exitWhenIdle, 1, 1, TimeUnit.SECONDS);
        try {
            while (!stopping) {
                SocketChannel client = server.accept();
                if (!admit(client)) {
                    client.close(); // stopped as it came: it reads the end, as it would from a holder gone
                    break;
                }
                Thread t = new Thread(() -> serve(client), "holder-client");
                t.setDaemon(true);
                t.start();
            }
        } catch (ClosedChannelException e) {
            // stopped
        } catch (IOException e) {
            log("accept failed, exiting: " + e);
        } finally {
            stop();
            idle.shutdownNow();
        }
    }

    /**
     * Counts a run in, unless the holder is stopping. One lock with {@link #exitWhenIdle}: a run admitted is never
     * cut off by an idle exit decided a moment before it came (it would be answered and then lose its socket).
     */
    private synchronized boolean admit(SocketChannel client) {
        if (stopping) {
            return false;
        }
        open.add(client);
        return true;
    }

    private synchronized void exitWhenIdle() {
        if (open.isEmpty() && System.nanoTime() - idleSince >= persist.toNanos()) {
            log("no run for " + persist.toSeconds() + "s: closing " + held.size() + " connections and exiting");
            stop();
        }
    }

    /** Stops serving: closes the socket and every held shell. */
    public synchronized void stop() {
        if (stopping && !server.isOpen()) {
            return;
        }
        stopping = true;
        closeQuietly(server);
        // runs' sockets too: a command in flight then fails as a broken connection, as under ssh -O exit
        open.forEach(Holder::closeQuietly);
        held.values().forEach(HeldConnection::close);
        held.clear();
        // a holder started while this one was stopping may have bound the same path: its socket stays
        try {
            if (socketKey != null && socketKey.equals(fileKey(socket))) {
                Files.deleteIfExists(socket);
            }
        } catch (IOException e) {
            log("could not remove " + socket + ": " + e);
        }
    }

    private static void closeQuietly(Closeable closeable) {
        try {
            closeable.close();
        } catch (IOException e) {
            // closing anyway
        }
    }

    private static Object fileKey(Path file) throws IOException {
        try {
            return Files.readAttributes(file, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS)
                    .fileKey();
        } catch (NoSuchFileException e) {
            return null;
        }
    }

    private void serve(SocketChannel channel) {
        try (channel) {
            if (!fromOurUser(channel)) {
                return;
            }
            DataInputStream in = new DataInputStream(new BufferedInputStream(Channels.newInputStream(channel)));
            DataOutputStream out = new DataOutputStream(new BufferedOutputStream(Channels.newOutputStream(channel)));
            RemoteShell shell = null;
            while (true) {
                int op = in.read();
                if (op < 0) {
                    return;
                }
                try {
                    shell = answer(HoldRequest.read((byte) op, in), out, shell);
                } catch (TransportException e) {
                    HoldWire.writeFailure(out, e);
                } catch (RuntimeException e) {
                    HoldWire.writeFailure(
                            out,
                            TransportException.afterSending(
                                    shell == null ? "?" : shell.hostName(),
                                    Kind.BROKEN,
                                    "the connection holder failed: " + e,
                                    e));
                }
                out.flush();
            }
        } catch (EOFException e) {
            // the run went away
        } catch (IOException e) {
            log("a run's socket failed: " + e);
        } finally {
            idleSince = System.nanoTime(); // before the run is counted out: an idle exit reads both
            open.remove(channel);
        }
    }

    /** Answers one request of a run; the shell its socket has opened, if any, is passed from one to the next. */
    private RemoteShell answer(HoldRequest request, DataOutputStream out, RemoteShell shell) throws IOException {
        if (request instanceof HoldRequest.Hello hello) {
            greet(hello, out);
        } else if (request instanceof HoldRequest.Open open) {
            return open(open.login(), out);
        } else if (request instanceof HoldRequest.Exec exec) {
            ExecResult result = opened(shell).exec(exec.command());
            out.writeByte(HoldWire.DONE);
            HoldRequest.Exec.writeReply(out, result);
        } else if (request instanceof HoldRequest.Put put) {
            opened(shell).put(put.path(), put.content(), put.mode(), put.become());
            out.writeByte(HoldWire.DONE);
        } else if (request instanceof HoldRequest.Status) {
            out.writeByte(HoldWire.DONE);
            HoldWire.writeString(out, status());
        } else if (request instanceof HoldRequest.Stop) {
            out.writeByte(HoldWire.DONE);
            out.flush();
            log("asked to stop");
            stop();
        } else {
            throw new IllegalStateException("no answer to " + request);
        }
        return shell;
    }

    private void greet(HoldRequest.Hello hello, DataOutputStream out) throws IOException {
        if (!hello.version().equals(FleetfixVersion.get())) {
            HoldWire.writeFailure(
                    out,
                    TransportException.relayed(
                            "-", Kind.UNSUPPORTED, false, "holder of fleetfix " + FleetfixVersion.get()));
            return;
        }
        if (!hello.persist().isZero()) {
            persist = hello.persist(); // the latest run's ControlPersist; zero is a question, not a run
        }
        out.writeByte(HoldWire.DONE);
    }

    private RemoteShell open(HoldLogin login, DataOutputStream out) throws IOException {
        HeldConnection connection = held.computeIfAbsent(login, k -> new HeldConnection());
        HeldConnection.Taken taken;
        try {
            taken = connection.take(login, opener, this::log);
        } catch (RuntimeException e) {
            held.remove(login, connection);
            throw e;
        }
        out.writeByte(HoldWire.DONE);
        out.writeBoolean(taken.reused());
        return taken.shell();
    }

    private String status() {
        List<String> lines = new ArrayList<>();
        held.forEach((login, connection) -> lines.add(connection.describe(login)));
        return "pid " + ProcessHandle.current().pid() + ", persist " + persist.toSeconds() + "s, " + lines.size()
                + " connections" + (lines.isEmpty() ? "" : "\n") + String.join("\n", lines);
    }

    private static RemoteShell opened(RemoteShell shell) {
        if (shell == null) {
            throw new IllegalStateException("no host opened on this socket");
        }
        return shell;
    }

    /** The peer's user from the socket (SO_PEERCRED): only our own user's runs are served. */
    private boolean fromOurUser(SocketChannel channel) {
        try {
            UnixDomainPrincipal peer = channel.getOption(ExtendedSocketOptions.SO_PEERCRED);
            if (peer.user().getName().equals(user)) {
                return true;
            }
            log("refused a connection from user " + peer.user().getName());
        } catch (IOException | UnsupportedOperationException e) {
            log("refused a connection whose user is unknown: " + e);
        }
        return false;
    }

    private void log(String line) {
        log.accept(Instant.now() + " fleetfix holder: " + line);
    }
}
