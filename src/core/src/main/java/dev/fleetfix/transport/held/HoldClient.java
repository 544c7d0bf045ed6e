package dev.fleetfix.transport.held;

import dev.fleetfix.FleetfixVersion;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.BufferedReader;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import jdk.net.ExtendedSocketOptions;

/**
 * The run's way to its user's holder: connects to the socket, and starts the holder first when none answers (one
 * run at a time, under the place's lock), as {@code ControlMaster auto} does. A holder of another build is asked to
 * stop and replaced.
 */
public final class HoldClient {
    /** How long a new holder may take to listen: a JVM's start. */
    private static final Duration START_TIMEOUT = Duration.ofSeconds(20);

    private static final java.util.Set<String> KEPT_ENV = java.util.Set.of("PATH", "HOME", "LANG", "TZ", "TMPDIR");

    /** Held while this process starts a holder. */
    private static final Object STARTING = new Object();

    private final HoldPlace place;
    private final Duration persist;
    private final List<String> holderCommand;

    /**
     * @param holderCommand the command that starts a holder, to which the socket and the persist time in
     *     milliseconds are appended
     */
    public HoldClient(HoldPlace place, Duration persist, List<String> holderCommand) {
        this.place = Objects.requireNonNull(place, "place");
        this.persist = Objects.requireNonNull(persist, "persist");
        this.holderCommand = List.copyOf(holderCommand);
    }

    public HoldPlace place() {
        return place;
    }

    /** An open socket to the holder, greeted; the holder is started if none answers. */
    public Socket connect() throws IOException {
        Optional<Socket> socket = tryConnect();
        if (socket.isPresent()) {
            return socket.get();
        }
        place.prepare();
        // the file lock keeps other runs out; this process's own hosts, which open side by side, wait here (a
        // second lock of the same file in one process is refused, not waited for)
        synchronized (STARTING) {
            try (FileChannel lockFile = openLock();
                    FileLock lock = lockFile.lock()) {
                socket = tryConnect();
                if (socket.isPresent()) {
                    return socket.get();
                }
                start();
            }
        }
        return tryConnect()
                .orElseThrow(() -> new IOException(
                        "the holder started but does not answer on " + place.socket() + "; see " + place.log()));
    }

    private FileChannel openLock() throws IOException {
        try {
            return FileChannel.open(
                    place.lock(), StandardOpenOption.CREATE, StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS);
        } catch (IOException e) {
            throw new IOException(
                    "cannot open " + place.lock() + " (it may be a link; remove it): " + e.getMessage(), e);
        }
    }

    /** The holder's status, if one runs: one line per held connection. */
    public Optional<String> status() throws IOException {
        Optional<Socket> socket = tryConnect();
        if (socket.isEmpty()) {
            return Optional.empty();
        }
        try (Socket s = socket.get()) {
            s.ask(new HoldRequest.Status());
            return Optional.of(HoldWire.readString(s.in()));
        }
    }

    /** Stops the holder, if one runs; its connections close. */
    public boolean stop() throws IOException {
        Optional<Socket> socket = connectOnly();
        if (socket.isEmpty()) {
            return false;
        }
        try (Socket s = socket.get()) {
            s.ask(new HoldRequest.Stop());
            return true;
        }
    }

    /** A greeted socket to the running holder, if one runs and answers; none is started. */
    Optional<Socket> tryConnect() throws IOException {
        Optional<Socket> socket = connectOnly();
        if (socket.isEmpty()) {
            return socket;
        }
        Socket s = socket.get();
        try {
            new HoldRequest.Hello(FleetfixVersion.get(), persist).write(s.out());
            s.out().flush();
            if (HoldWire.readStatus(s.in()) == HoldWire.DONE) {
                return socket;
            }
            HoldWire.readFailure(s.in());
        } catch (IOException e) {
            s.close();
            return Optional.empty(); // a holder that was exiting as we came
        }
        // another build's holder: stop it; the next connect starts ours
        new HoldRequest.Stop().write(s.out());
        s.out().flush();
        s.close();
        return Optional.empty();
    }

    /**
     * Connects to the socket, once the place is checked to be the user's alone: a socket in a directory someone else
     * made could be theirs, and the run would hand it a passphrase.
     */
    private Optional<Socket> connectOnly() throws IOException {
        if (!Files.exists(place.directory(), LinkOption.NOFOLLOW_LINKS)) {
            return Optional.empty();
        }
        place.prepare();
        if (!Files.exists(place.socket(), LinkOption.NOFOLLOW_LINKS)) {
            return Optional.empty();
        }
        if (Files.isSymbolicLink(place.socket())) {
            throw new IOException(place.socket() + " is a symbolic link; remove it");
        }
        String owner = Files.getOwner(place.socket(), LinkOption.NOFOLLOW_LINKS).getName();
        if (!owner.equals(place.user())) {
            throw new IOException(place.socket() + " belongs to " + owner + ", not " + place.user() + "; remove it");
        }
        SocketChannel channel = SocketChannel.open(StandardProtocolFamily.UNIX);
        try {
            channel.connect(UnixDomainSocketAddress.of(place.socket()));
        } catch (IOException e) {
            channel.close();
            return Optional.empty(); // a socket file whose holder is gone
        }
        // The checks above read the path, and connect() looked it up again: whatever answers must be our own user's
        // process (SO_PEERCRED), or it is given nothing, no login and no command, whatever the path held meanwhile.
        String peer;
        try {
            peer = channel.getOption(ExtendedSocketOptions.SO_PEERCRED).user().getName();
        } catch (IOException | UnsupportedOperationException e) {
            channel.close();
            throw new IOException("cannot tell whose process answers on " + place.socket() + ": " + e.getMessage(), e);
        }
        if (!peer.equals(place.user())) {
            channel.close();
            throw new IOException("a process of " + peer + ", not " + place.user() + ", answers on " + place.socket()
                    + "; remove it");
        }
        return Optional.of(new Socket(channel));
    }

    /** Starts a holder in its own session (so that a Ctrl-C to the run does not reach it) and waits for "ready". */
    private void start() throws IOException {
        List<String> command = new ArrayList<>();
        if (Files.isExecutable(java.nio.file.Path.of("/usr/bin/setsid"))) {
            command.add("/usr/bin/setsid");
        }
        command.addAll(holderCommand);
        command.add(place.socket().toString());
        command.add(Long.toString(persist.toMillis()));
        if (Files.isSymbolicLink(place.log())) {
            throw new IOException(place.log() + " is a symbolic link; remove it");
        }
        if (!Files.exists(place.log(), LinkOption.NOFOLLOW_LINKS)) {
            Files.createFile(
                    place.log(), PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        }
        ProcessBuilder builder = new ProcessBuilder(command)
                .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")))
                .redirectError(ProcessBuilder.Redirect.appendTo(place.log().toFile()));
        // the holder outlives this run: it keeps none of its environment (a passphrase variable among it), only
        // what a JVM needs; each login brings the variables it reads
        builder.environment().keySet().removeIf(name -> !KEPT_ENV.contains(name) && !name.startsWith("LC_"));
        Process process = builder.start();
        CompletableFuture<String> ready = CompletableFuture.supplyAsync(() -> {
            try (BufferedReader r =
                    new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                String line = r.readLine();
                return line == null ? "" : line;
            } catch (IOException e) {
                return "";
            }
        });
        try {
            String line = ready.get(START_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
            if (!line.equals("ready")) {
                throw new IOException("the holder did not start (exit " + exitOf(process) + "); see " + place.log());
            }
        } catch (TimeoutException e) {
            process.destroyForcibly();
            throw new IOException(
                    "the holder did not listen within " + START_TIMEOUT.toSeconds() + "s; see " + place.log());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
            throw new IOException("interrupted while the holder started", e);
        } catch (ExecutionException e) {
            throw new IOException("the holder did not start: " + e.getCause(), e.getCause());
        }
    }

    private static String exitOf(Process process) {
        try {
            return process.waitFor(2, TimeUnit.SECONDS) ? Integer.toString(process.exitValue()) : "none yet";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "unknown";
        }
    }

    /** One greeted socket to the holder and its streams. */
    public static final class Socket implements AutoCloseable {
        private final SocketChannel channel;
        private final DataInputStream in;
        private final DataOutputStream out;

        Socket(SocketChannel channel) {
            this.channel = channel;
            this.in = new DataInputStream(new BufferedInputStream(Channels.newInputStream(channel)));
            this.out = new DataOutputStream(new BufferedOutputStream(Channels.newOutputStream(channel)));
        }

        DataInputStream in() {
            return in;
        }

        DataOutputStream out() {
            return out;
        }

        /** Sends a request and reads its reply's status: a failure is thrown as the transport failure it was. */
        void ask(HoldRequest request) throws IOException {
            request.write(out);
            out.flush();
            expectDone();
        }

        /** Reads a reply's status: a failure is thrown as the transport failure it was. */
        void expectDone() throws IOException {
            if (HoldWire.readStatus(in) != HoldWire.DONE) {
                throw HoldWire.readFailure(in);
            }
        }

        @Override
        public void close() {
            try {
                channel.close();
            } catch (IOException e) {
                // gone already
            }
        }
    }
}
