package dev.fleetfix.transport.ssh;

import dev.fleetfix.inventory.Host;
import dev.fleetfix.transport.AtomicWrite;
import dev.fleetfix.transport.Become;
import dev.fleetfix.transport.BecomeAnswer;
import dev.fleetfix.transport.Command;
import dev.fleetfix.transport.CommandClock;
import dev.fleetfix.transport.ExecResult;
import dev.fleetfix.transport.KillAfter;
import dev.fleetfix.transport.RemoteShell;
import dev.fleetfix.transport.ShellQuote;
import dev.fleetfix.transport.SshOptions;
import dev.fleetfix.transport.StreamDrain;
import dev.fleetfix.transport.TransportException;
import dev.fleetfix.transport.TransportException.Kind;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import net.schmizz.sshj.connection.ConnectionException;
import net.schmizz.sshj.connection.channel.direct.Session;
import net.schmizz.sshj.connection.channel.direct.Signal;

/**
 * A {@link RemoteShell} over one SSH connection ({@link SshConnection}), opened once and reused for every command of
 * a run; each command gets its own session (channel) on that connection.
 *
 * <p>Commands run as {@code sh -c <script>}, or through {@link Become} ({@code sudo -n}, or sudo or su answered with
 * the host's become password) when they ask for root, the host has {@code become} and the login user is not root.
 */
public final class SshShell implements RemoteShell {

    private final Host host;
    private final SshOptions options;
    private final SshLogin login;
    private final Become become;
    private final SshConnection connection;

    private SshShell(Host host, SshOptions options, SshLogin login) {
        this.host = Objects.requireNonNull(host, "host");
        this.options = Objects.requireNonNull(options, "options");
        this.login = Objects.requireNonNull(login, "login");
        this.become = Become.of(host);
        this.connection = new SshConnection(host, options, login);
    }

    /** Connects, checks the host key and logs in; throws {@link TransportException} when it cannot. */
    public static SshShell open(Host host, SshOptions options) {
        return open(host, options, SshLogin.of(host, options));
    }

    /** With a login resolved from a given home and environment: the holder's, a test's. */
    static SshShell open(Host host, SshOptions options, SshLogin login) {
        SshShell shell = new SshShell(host, options, login);
        shell.connection.client();
        return shell;
    }

    @Override
    public String hostName() {
        return host.name();
    }

    /** How many times this shell has connected: 1 unless the connection broke and was re-made. */
    int connectCount() {
        return connection.connectCount();
    }

    @Override
    public ExecResult exec(Command command) {
        return run(command.script(), command.become(), command.script(), command.timeout(), null);
    }

    @Override
    public void put(String remotePath, byte[] content, int mode, boolean become) {
        String script = AtomicWrite.script(remotePath, mode);
        ExecResult result = run(script, become, "write " + remotePath, Command.DEFAULT_TIMEOUT, content);
        if (!result.ok()) {
            throw TransportException.afterSending(
                    host,
                    Kind.BROKEN,
                    "writing " + remotePath + " failed (exit " + result.exitCode() + "): " + result.errorText(),
                    null);
        }
    }

    /** {@code timeout -s KILL N sh -c 'script'}, as root through {@code become}: see {@link KillAfter} for why. */
    static String wrap(String script, Optional<Become> become, Duration timeout) {
        String line = KillAfter.prefix(timeout) + " sh -c " + ShellQuote.quote(script);
        return become.map(b -> b.line(timeout, script)).orElse(line);
    }

    /** Runs {@code script} (as root: see {@code asRoot}), timed from its start on the host ({@link CommandClock}). */
    private ExecResult run(String script, boolean asRoot, String what, Duration timeout, byte[] stdin) {
        CommandClock clock = CommandClock.starting(timeout, options.connectTimeout());
        Session session = connection.session(what);
        boolean abandoned = false;
        boolean raised = asRoot && host.become() && !login.isRoot();
        try {
            Session.Command command =
                    session.exec(wrap(script, Optional.of(become).filter(b -> raised), timeout));
            BecomeAnswer answer = become.answer(raised, command.getOutputStream());
            StreamDrain out = StreamDrain.start(command.getInputStream(), "ssh-stdout-" + host.name());
            StreamDrain err = StreamDrain.start(answer.stderr(command.getErrorStream()), "ssh-stderr-" + host.name());
            boolean began = answer.awaitStart(clock.remaining());
            clock.started();
            feed(command.getOutputStream(), began ? stdin : null);
            String stdout;
            String stderr;
            try {
                stdout = out.text(clock.remaining());
                stderr = err.text(clock.remaining());
                awaitClose(command, clock);
            } catch (TimeoutException e) {
                abandoned = true;
                kill(command);
                throw SshFailures.commandTimedOut(host, timeout, what);
            }
            if (command.isOpen()) {
                abandoned = true;
                kill(command);
                throw SshFailures.commandTimedOut(host, timeout, what);
            }
            answer.check(host);
            return new ExecResult(
                    exitCode(command),
                    stdout,
                    stderr + signalNote(command),
                    clock.elapsed(),
                    out.dropped() + err.dropped());
        } catch (IOException | UncheckedIOException e) {
            throw SshFailures.broken(host, what, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw SshFailures.broken(host, what, e);
        } finally {
            if (abandoned) {
                closeInBackground(session);
            } else {
                SshConnection.closeQuietly(session);
            }
        }
    }

    /** Output has ended; the exit status comes with the channel's close. */
    private static void awaitClose(Session.Command command, CommandClock clock) throws IOException, TimeoutException {
        try {
            command.join(Math.max(1, clock.remaining().toMillis()), TimeUnit.MILLISECONDS);
        } catch (ConnectionException e) {
            if (clock.expired()) {
                throw new TimeoutException("no exit status before the deadline");
            }
            throw e;
        }
    }

    /**
     * Writes the command's input and closes it. A command may exit without reading it all (a put
     * whose mktemp failed); that is not a transport failure: its exit status says what happened, and
     * a connection that really broke shows up when reading the output.
     */
    private static void feed(OutputStream stdin, byte[] content) {
        try (stdin) {
            if (content != null) {
                stdin.write(content);
                stdin.flush();
            }
        } catch (IOException e) {
            // See above: the outcome is read from the command's status.
        }
    }

    private static int exitCode(Session.Command command) {
        Integer status = command.getExitStatus();
        if (status != null) {
            return status;
        }
        // Killed by a signal: report it the way a shell would (128 + n) when we know n, else -1.
        Signal signal = command.getExitSignal();
        return signal == Signal.KILL ? 137 : signal == Signal.TERM ? 143 : signal == Signal.INT ? 130 : -1;
    }

    private static String signalNote(Session.Command command) {
        Signal signal = command.getExitSignal();
        return command.getExitStatus() == null && signal != null ? "(killed by signal " + signal + ")\n" : "";
    }

    /**
     * Best effort: ask sshd to kill the command's process group. OpenSSH honours this for
     * privilege-separated sessions, which is every login but root's; a root login's command runs on
     * until it ends by itself.
     */
    private static void kill(Session.Command command) {
        try {
            command.signal(Signal.KILL);
        } catch (IOException | RuntimeException e) {
            // The session is closed either way.
        }
    }

    /**
     * sshd confirms a session's close only once its command has exited, and SSHJ waits for that
     * confirmation; a timed-out command must not hold the caller, so the close happens aside.
     */
    private static void closeInBackground(Session session) {
        Thread closer = new Thread(() -> SshConnection.closeQuietly(session), "ssh-session-close");
        closer.setDaemon(true);
        closer.start();
    }

    /** Whether the connection answers within {@code within} ({@link SshConnection#responds}). */
    public boolean responds(Duration within) {
        return connection.responds(within);
    }

    @Override
    public void close() {
        connection.close();
    }
}
