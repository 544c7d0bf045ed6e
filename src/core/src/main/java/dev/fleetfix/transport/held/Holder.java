package dev.fleetfix.transport.held;

import dev.fleetfix.FleetfixVersion;
import dev.fleetfix.transport.Command;
import dev.fleetfix.transport.ExecResult;
import dev.fleetfix.transport.RemoteShell;
import dev.fleetfix.transport.TransportException;
import dev.fleetfix.transport.TransportException.Kind;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
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
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
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
    private final Map<HoldLogin, Held> held = new ConcurrentHashMap<>();
    private final AtomicInteger clients = new AtomicInteger();
    private final Set<SocketChannel> open = ConcurrentHashMap.newKeySet();
    private final String user = System.getProperty("user.name");
    private volatile Duration persist;
    private volatile long idleSince = System.nanoTime();
    private volatile boolean stopping;

    /** One login's shell, the state of the files it was trusted by, and when a run last used it. */
    private final class Held {
        private RemoteShell shell;
        private Liveness liveness;
        private Map<Path, Optional<FileState>> trusted = Map.of();
        private final Instant since = Instant.now();
        private volatile Instant lastUsed = since;
        private int runs;

        /** The shell for a run, opened again when a file it was trusted by changed; whether it was reused. */
        synchronized Reused get(HoldLogin login, Opener opener) {
            if (shell != null) {
                Optional<Path> changed = trusted.entrySet().stream()
                        .filter(e -> !FileState.of(e.getKey()).equals(e.getValue()))
                        .map(Map.Entry::getKey)
                        .findFirst();
                if (changed.isPresent()) {
                    log(login.host().name() + ": " + changed.get() + " changed since its connection was opened:"
                            + " logging in again");
                    shell.close();
                    shell = null;
                } else if (!liveness.respondsWithin(login.options().connectTimeout())) {
                    log(login.host().name() + ": its connection did not answer within "
                            + login.options().connectTimeout().toSeconds() + "s: logging in again");
                    shell.close();
                    shell = null;
                }
            }
            boolean reused = shell != null;
            if (shell == null) {
                Opened opened = opener.open(login);
                Map<Path, Optional<FileState>> states = new LinkedHashMap<>();
                opened.trust().forEach(file -> states.put(file, FileState.of(file)));
                shell = opened.shell();
                liveness = opened.liveness();
                trusted = states;
            }
            runs++;
            lastUsed = Instant.now();
            return new Reused(shell, reused);
        }

        synchronized boolean isOpen() {
            return shell != null;
        }

        synchronized void close() {
            if (shell != null) {
                shell.close();
            }
        }
    }

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
        clients.incrementAndGet();
        open.add(client);
        return true;
    }

    private synchronized void exitWhenIdle() {
        if (clients.get() == 0 && System.nanoTime() - idleSince >= persist.toNanos()) {
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
        try {
            server.close();
        } catch (IOException e) {
            // closing anyway
        }
        // runs' sockets too: a command in flight then fails as a broken connection, as under ssh -O exit
        open.forEach(c -> {
            try {
                c.close();
            } catch (IOException e) {
                // closing anyway
            }
        });
        held.values().forEach(Held::close);
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
                    shell = answer((byte) op, in, out, shell);
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
            open.remove(channel);
            idleSince = System.nanoTime();
            clients.decrementAndGet();
        }
    }

    private RemoteShell answer(byte op, DataInputStream in, DataOutputStream out, RemoteShell shell)
            throws IOException {
        switch (op) {
            case HoldWire.HELLO -> {
                String version = HoldWire.readString(in);
                Duration asked = Duration.ofMillis(in.readLong());
                if (!version.equals(FleetfixVersion.get())) {
                    HoldWire.writeFailure(
                            out,
                            TransportException.relayed(
                                    "-", Kind.UNSUPPORTED, false, "holder of fleetfix " + FleetfixVersion.get()));
                    return shell;
                }
                if (!asked.isZero()) {
                    persist = asked; // the latest run's ControlPersist; zero is a question, not a run
                }
                out.writeByte(HoldWire.DONE);
                return shell;
            }
            case HoldWire.OPEN -> {
                HoldLogin login = HoldLogin.read(in);
                Held h = held.computeIfAbsent(login, k -> new Held());
                Reused opened;
                try {
                    opened = h.get(login, opener);
                } catch (RuntimeException e) {
                    held.remove(login, h);
                    throw e;
                }
                out.writeByte(HoldWire.DONE);
                out.writeBoolean(opened.reused());
                return opened.shell();
            }
            case HoldWire.EXEC -> {
                String script = HoldWire.readString(in);
                boolean become = in.readBoolean();
                Duration timeout = Duration.ofMillis(in.readLong());
                ExecResult r = opened(shell).exec(new Command(script, become, timeout));
                out.writeByte(HoldWire.DONE);
                out.writeInt(r.exitCode());
                HoldWire.writeString(out, r.stdout());
                HoldWire.writeString(out, r.stderr());
                out.writeLong(r.duration().toNanos());
                out.writeLong(r.dropped());
                return shell;
            }
            case HoldWire.PUT -> {
                String path = HoldWire.readString(in);
                int mode = in.readInt();
                boolean become = in.readBoolean();
                byte[] content = HoldWire.readBytes(in);
                opened(shell).put(path, content, mode, become);
                out.writeByte(HoldWire.DONE);
                return shell;
            }
            case HoldWire.STATUS -> {
                List<String> lines = new ArrayList<>();
                held.forEach((login, h) -> lines.add(
                        login + ", held since " + h.since + ", last used " + h.lastUsed + ", " + h.runs + " opens"));
                out.writeByte(HoldWire.DONE);
                HoldWire.writeString(
                        out,
                        "pid " + ProcessHandle.current().pid() + ", persist "
                                + persist.toSeconds() + "s, " + lines.size() + " connections"
                                + (lines.isEmpty() ? "" : "\n")
                                + String.join("\n", lines));
                return shell;
            }
            case HoldWire.STOP -> {
                out.writeByte(HoldWire.DONE);
                out.flush();
                log("asked to stop");
                stop();
                return shell;
            }
            default -> throw new IOException("not the holder's wire: operation " + op);
        }
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

    private record Reused(RemoteShell shell, boolean reused) {}

    /**
     * A file as the holder last saw it: size, modification and change times, identity (a file replaced is another).
     * The change time catches an edit in place whose modification time was set back ({@code touch -r}).
     */
    private record FileState(long size, FileTime modified, Object changed, Object key) {
        static Optional<FileState> of(Path file) {
            try {
                BasicFileAttributes a = Files.readAttributes(file, BasicFileAttributes.class);
                Object changed = Files.getAttribute(file, "unix:ctime");
                return Optional.of(new FileState(a.size(), a.lastModifiedTime(), changed, a.fileKey()));
            } catch (IOException | UnsupportedOperationException | IllegalArgumentException e) {
                return Optional.empty();
            }
        }
    }

    private void log(String line) {
        log.accept(Instant.now() + " fleetfix holder: " + line);
    }
}
