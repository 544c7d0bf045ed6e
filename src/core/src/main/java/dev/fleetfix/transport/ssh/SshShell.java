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
import dev.fleetfix.transport.ssh.SshFailures.Attempt;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import net.schmizz.concurrent.Promise;
import net.schmizz.sshj.DefaultConfig;
import net.schmizz.sshj.SSHClient;
import net.schmizz.sshj.common.SSHPacket;
import net.schmizz.sshj.connection.ConnectionException;
import net.schmizz.sshj.connection.channel.OpenFailException;
import net.schmizz.sshj.connection.channel.direct.Session;
import net.schmizz.sshj.connection.channel.direct.Signal;

/**
 * A {@link RemoteShell} over one SSH connection (SSHJ), opened once and reused for every command of
 * a run; each command gets its own session (channel) on that connection.
 *
 * <p>Commands run as {@code sh -c <script>}, or through {@link Become} ({@code sudo -n}, or sudo or su answered with
 * the host's become password) when they ask for root, the host has {@code become} and the login user is not root.
 */
public final class SshShell implements RemoteShell {

    /** Closes connections that overrun the connect timeout, whichever phase they hang in. */
    private static final ScheduledExecutorService WATCHDOG = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread thread = new Thread(r, "ssh-connect-watchdog");
        thread.setDaemon(true);
        return thread;
    });

    /**
     * SSHJ's {@code DefaultConfig} tries out every cipher it knows when built (Twofish, Blowfish and
     * Serpent key schedules among them): about a fifth of an audit's CPU when built per host. It is
     * only read by the clients (its random source is synchronized), so one serves the whole process.
     */
    private static final class SharedConfig {
        static final DefaultConfig INSTANCE = HostCertificate.checkedByKnownHosts(new DefaultConfig());
    }

    private final Host host;
    private final SshOptions options;
    private final SshLogin login;
    private final Become become;
    private final AtomicInteger connects = new AtomicInteger();
    private SSHClient jumpClient;
    private SSHClient client;
    private boolean closed;

    private SshShell(Host host, SshOptions options, SshLogin login) {
        this.host = Objects.requireNonNull(host, "host");
        this.options = Objects.requireNonNull(options, "options");
        this.login = Objects.requireNonNull(login, "login");
        this.become = Become.of(host);
    }

    /** Connects, checks the host key and logs in; throws {@link TransportException} when it cannot. */
    public static SshShell open(Host host, SshOptions options) {
        return open(host, options, SshLogin.of(host, options));
    }

    /** For tests: a login resolved from a given home and environment. */
    static SshShell open(Host host, SshOptions options, SshLogin login) {
        SshShell shell = new SshShell(host, options, login);
        shell.connection();
        return shell;
    }

    @Override
    public String hostName() {
        return host.name();
    }

    /** How many times this shell has connected: 1 unless the connection broke and was re-made. */
    int connectCount() {
        return connects.get();
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
        Session session = startSession(what);
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
                closeQuietly(session);
            }
        }
    }

    /**
     * A session on the open connection. A connection that died since the last command (the host
     * rebooted, sshd was restarted) is made again, once; a server that refuses another session on a
     * live connection (MaxSessions) is not a reason to drop it.
     */
    private Session startSession(String script) {
        SSHClient ssh = connection();
        try {
            return ssh.startSession();
        } catch (OpenFailException e) {
            throw SshFailures.noSession(host, script, e);
        } catch (IOException first) {
            dropIfCurrent(ssh);
            try {
                return connection().startSession();
            } catch (IOException e) {
                e.addSuppressed(first);
                throw SshFailures.noSession(host, script, e);
            }
        }
    }

    private synchronized void dropIfCurrent(SSHClient ssh) {
        if (client == ssh) {
            disconnectAll();
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
        Thread closer = new Thread(() -> closeQuietly(session), "ssh-session-close");
        closer.setDaemon(true);
        closer.start();
    }

    /** The open connection, made again if it broke since the last command. */
    private synchronized SSHClient connection() {
        if (closed) {
            throw new IllegalStateException("shell to host " + host.name() + " is closed");
        }
        if (client != null && client.isConnected() && client.isAuthenticated()) {
            return client;
        }
        disconnectAll();
        connect();
        return client;
    }

    private void connect() {
        Optional<JumpHost> jump = host.jump().filter(j -> !j.isBlank()).map(JumpHost::parse);
        KnownHostsVerifier verifier = KnownHostsVerifier.load(login.knownHosts(), options.acceptNewHostKeys());
        AtomicBoolean timedOut = new AtomicBoolean();
        SSHClient target = newClient(verifier);
        SSHClient bastion = jump.map(j -> newClient(verifier)).orElse(null);
        ScheduledFuture<?> watchdog = WATCHDOG.schedule(
                () -> {
                    timedOut.set(true);
                    disconnectQuietly(target);
                    disconnectQuietly(bastion);
                },
                options.connectTimeout().toMillis(),
                TimeUnit.MILLISECONDS);
        try {
            if (jump.isPresent()) {
                JumpHost j = jump.get();
                String user = j.user().orElse(login.user());
                dial(bastion, j.address(), j.port(), user, verifier, timedOut, "jump host " + j + ": ", () -> {
                    bastion.connect(j.address(), j.port());
                    login.authenticate(bastion, user);
                });
                jumpClient = bastion;
            }
            dial(target, host.address(), host.port(), login.user(), verifier, timedOut, "", () -> {
                if (bastion != null) {
                    target.connectVia(bastion.newDirectConnection(host.address(), host.port()));
                } else {
                    target.connect(host.address(), host.port());
                }
                login.authenticate(target, login.user());
            });
            client = target;
            connects.incrementAndGet();
        } catch (RuntimeException e) {
            disconnectQuietly(target);
            disconnectQuietly(bastion);
            jumpClient = null;
            throw e;
        } finally {
            watchdog.cancel(false);
        }
    }

    private interface Step {
        void run() throws IOException;
    }

    private void dial(
            SSHClient ssh,
            String address,
            int port,
            String user,
            KnownHostsVerifier verifier,
            AtomicBoolean timedOut,
            String via,
            Step step) {
        try {
            step.run();
        } catch (IOException | RuntimeException e) {
            Attempt attempt = new Attempt(
                    via,
                    address,
                    port,
                    options.connectTimeout(),
                    timedOut.get(),
                    verifier.file(),
                    Optional.ofNullable(verifier.outcome()),
                    user,
                    login.keyNames());
            throw SshFailures.connectFailed(host, attempt, e);
        }
    }

    private SSHClient newClient(KnownHostsVerifier verifier) {
        SSHClient ssh = new SSHClient(SharedConfig.INSTANCE);
        int timeoutMs =
                (int) Math.min(Integer.MAX_VALUE, options.connectTimeout().toMillis());
        ssh.setConnectTimeout(timeoutMs);
        ssh.getTransport().setTimeoutMs(timeoutMs);
        ssh.addHostKeyVerifier(verifier);
        return ssh;
    }

    /**
     * Whether the connection answers within {@code within}: an OpenSSH keepalive request, answered (OpenSSH refuses
     * it, which is an answer) or not. A connection a firewall or NAT dropped without a word looks connected until then,
     * and a command sent into it would wait out its timeout and could not be sent again.
     */
    public boolean responds(Duration within) {
        SSHClient ssh;
        synchronized (this) {
            ssh = client;
        }
        if (ssh == null || !ssh.isConnected()) {
            return false;
        }
        try {
            Promise<SSHPacket, ConnectionException> answer =
                    ssh.getConnection().sendGlobalRequest("keepalive@openssh.com", true, new byte[0]);
            try {
                answer.tryRetrieve(within.toMillis(), TimeUnit.MILLISECONDS);
            } catch (ConnectionException refused) {
                // a refusal is an answer; a connection that broke meanwhile is caught below
            }
            return answer.isFulfilled() && ssh.isConnected(); // an answer, a value or a refusal
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }

    @Override
    public synchronized void close() {
        closed = true;
        disconnectAll();
    }

    private void disconnectAll() {
        disconnectQuietly(client);
        disconnectQuietly(jumpClient);
        client = null;
        jumpClient = null;
    }

    private static void disconnectQuietly(SSHClient ssh) {
        if (ssh == null) {
            return;
        }
        try {
            ssh.disconnect();
        } catch (IOException | RuntimeException e) {
            // Closing a connection that is already gone.
        }
    }

    private static void closeQuietly(AutoCloseable closeable) {
        try {
            closeable.close();
        } catch (Exception e) {
            // Already closed or the connection is gone.
        }
    }
}
