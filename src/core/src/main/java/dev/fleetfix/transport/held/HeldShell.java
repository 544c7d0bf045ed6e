package dev.fleetfix.transport.held;

import dev.fleetfix.inventory.Host;
import dev.fleetfix.transport.Command;
import dev.fleetfix.transport.ExecResult;
import dev.fleetfix.transport.RemoteShell;
import dev.fleetfix.transport.TransportException;
import dev.fleetfix.transport.TransportException.Kind;
import java.io.DataInputStream;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Objects;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * A {@link RemoteShell} whose commands run over the connection the user's holder keeps to the host. Each command
 * borrows a socket to the holder (opened on the host's login, which the holder matches to its held connection), so
 * that commands may run side by side as they do on a direct connection. A holder that goes away during a command is
 * a broken connection after sending: the command may have run.
 */
public final class HeldShell implements RemoteShell {
    /** Closes a socket whose holder does not answer well after the command's own deadline. */
    private static final ScheduledExecutorService WATCHDOG = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread thread = new Thread(r, "held-shell-watchdog");
        thread.setDaemon(true);
        return thread;
    });

    /** The holder's own margin beyond a command's timeout: its kill, and closing the session. */
    private static final Duration MARGIN = Duration.ofSeconds(30);

    private final Host host;
    private final HoldLogin login;
    private final HoldClient client;
    private final Deque<HoldClient.Socket> idle = new ArrayDeque<>();
    private final boolean reused;
    private boolean closed;

    private HeldShell(Host host, HoldLogin login, HoldClient client, HoldClient.Socket first, boolean reused) {
        this.host = host;
        this.login = login;
        this.client = client;
        this.reused = reused;
        idle.push(first);
    }

    /**
     * Opens the host through the holder: the holder logs in, or hands over the connection it holds for the same
     * login. A refused login is the same {@link TransportException} a direct connection gives.
     *
     * @throws IOException when the holder cannot be reached or started (the run may then connect directly)
     */
    public static HeldShell open(Host host, HoldLogin login, HoldClient client) throws IOException {
        Objects.requireNonNull(host, "host");
        Opened opened = openOn(client, login);
        return new HeldShell(host, login, client, opened.socket(), opened.reused());
    }

    /** A new socket to the holder on which the login is opened, and whether the holder held its connection already. */
    private static Opened openOn(HoldClient client, HoldLogin login) throws IOException {
        HoldClient.Socket socket = client.connect();
        ScheduledFuture<?> watchdog =
                watch(socket, login.options().connectTimeout().plus(MARGIN));
        try {
            socket.ask(new HoldRequest.Open(login));
            return new Opened(socket, socket.in().readBoolean());
        } catch (IOException | RuntimeException e) {
            socket.close();
            throw e;
        } finally {
            watchdog.cancel(false);
        }
    }

    private record Opened(HoldClient.Socket socket, boolean reused) {}

    /** Whether the holder already held this host's connection when the run opened it (no login this run). */
    public boolean reused() {
        return reused;
    }

    @Override
    public String hostName() {
        return host.name();
    }

    @Override
    public ExecResult exec(Command command) {
        return call(command.script(), command.timeout(), new HoldRequest.Exec(command), HoldRequest.Exec::readReply);
    }

    @Override
    public void put(String remotePath, byte[] content, int mode, boolean become) {
        call(
                "write " + remotePath,
                Command.DEFAULT_TIMEOUT,
                new HoldRequest.Put(remotePath, mode, become, content),
                in -> null);
    }

    private interface Reply<T> {
        T read(DataInputStream in) throws IOException;
    }

    /**
     * One request and its reply. A socket whose holder is gone fails while the request is written (a Unix socket
     * whose peer closed refuses the write): nothing reached the host, so it is tried once more on a new socket, which
     * starts a new holder. Once the request is written, the host may have run it: a failure then is a broken
     * connection after sending, never retried.
     */
    private <T> T call(String script, Duration timeout, HoldRequest request, Reply<T> reply) {
        for (int attempt = 1; ; attempt++) {
            HoldClient.Socket socket = borrow(script);
            // the holder's command may take the connect timeout to start, then its whole timeout (CommandClock)
            ScheduledFuture<?> watchdog =
                    watch(socket, login.options().connectTimeout().plus(timeout).plus(MARGIN));
            boolean healthy = false;
            boolean written = false;
            try {
                request.write(socket.out());
                socket.out().flush();
                written = true;
                socket.expectDone();
                T result = reply.read(socket.in());
                healthy = true;
                return result;
            } catch (TransportException e) {
                healthy = true;
                throw e;
            } catch (IOException e) {
                if (!written && attempt == 1) {
                    dropIdle(); // their holder is gone too
                    continue;
                }
                String what = "the connection holder went away while " + what(script);
                if (!written) {
                    throw new TransportException(host, Kind.BROKEN, what + " was sent: " + e.getMessage(), e);
                }
                throw TransportException.afterSending(host, Kind.BROKEN, what + " ran: " + e.getMessage(), e);
            } finally {
                watchdog.cancel(false);
                giveBack(socket, healthy);
            }
        }
    }

    /** An idle socket, or a new one opened on the login (the holder then hands over its connection). */
    private HoldClient.Socket borrow(String script) {
        synchronized (this) {
            if (closed) {
                throw new IllegalStateException("shell to host " + host.name() + " is closed");
            }
            if (!idle.isEmpty()) {
                return idle.pop();
            }
        }
        try {
            return openOn(client, login).socket();
        } catch (IOException e) {
            throw new TransportException(
                    host,
                    Kind.BROKEN,
                    "the connection holder could not be reached before " + what(script) + ": " + e.getMessage(),
                    e);
        }
    }

    private synchronized void dropIdle() {
        idle.forEach(HoldClient.Socket::close);
        idle.clear();
    }

    private synchronized void giveBack(HoldClient.Socket socket, boolean healthy) {
        if (healthy && !closed) {
            idle.push(socket);
        } else {
            socket.close();
        }
    }

    private static ScheduledFuture<?> watch(HoldClient.Socket socket, Duration after) {
        return WATCHDOG.schedule(socket::close, after.toMillis(), TimeUnit.MILLISECONDS);
    }

    private static String what(String script) {
        String line = script.lines().findFirst().orElse("").strip();
        return "'" + (line.length() > 60 ? line.substring(0, 60) + "…" : line) + "'";
    }

    /** Closes this run's sockets; the holder keeps the connection for the next run. */
    @Override
    public synchronized void close() {
        closed = true;
        dropIdle();
    }
}
