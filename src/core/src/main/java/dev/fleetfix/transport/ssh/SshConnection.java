package dev.fleetfix.transport.ssh;

import dev.fleetfix.inventory.Host;
import dev.fleetfix.transport.SshOptions;
import dev.fleetfix.transport.ssh.SshFailures.Attempt;
import java.io.IOException;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import net.schmizz.concurrent.Promise;
import net.schmizz.sshj.DefaultConfig;
import net.schmizz.sshj.SSHClient;
import net.schmizz.sshj.common.SSHPacket;
import net.schmizz.sshj.connection.ConnectionException;
import net.schmizz.sshj.connection.channel.OpenFailException;
import net.schmizz.sshj.connection.channel.direct.Session;

/**
 * One host's SSH connection (SSHJ), through its jump host when it has one: connected, its host key checked against
 * known_hosts and logged in within the connect timeout, and made again when it broke. {@link SshShell} runs its
 * commands in the sessions it opens.
 */
final class SshConnection implements AutoCloseable {

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
    private final AtomicInteger connects = new AtomicInteger();
    private SSHClient jumpClient;
    private SSHClient client;
    private boolean closed;

    SshConnection(Host host, SshOptions options, SshLogin login) {
        this.host = Objects.requireNonNull(host, "host");
        this.options = Objects.requireNonNull(options, "options");
        this.login = Objects.requireNonNull(login, "login");
    }

    /** How many times this connection was made: 1 unless it broke and was made again. */
    int connectCount() {
        return connects.get();
    }

    /**
     * A session on the open connection. A connection that died since the last command (the host
     * rebooted, sshd was restarted) is made again, once; a server that refuses another session on a
     * live connection (MaxSessions) is not a reason to drop it.
     */
    Session session(String what) {
        SSHClient ssh = client();
        try {
            return ssh.startSession();
        } catch (OpenFailException e) {
            throw SshFailures.noSession(host, what, e);
        } catch (IOException first) {
            dropIfCurrent(ssh);
            try {
                return client().startSession();
            } catch (IOException e) {
                e.addSuppressed(first);
                throw SshFailures.noSession(host, what, e);
            }
        }
    }

    private synchronized void dropIfCurrent(SSHClient ssh) {
        if (client == ssh) {
            disconnectAll();
        }
    }

    /** The open connection, made again if it broke since the last command. */
    synchronized SSHClient client() {
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
                    closeQuietly(target);
                    closeQuietly(bastion);
                },
                options.connectTimeout().toMillis(),
                TimeUnit.MILLISECONDS);
        try {
            if (jump.isPresent()) {
                JumpHost j = jump.get();
                String user = j.user().orElse(login.user());
                dial(j.address(), j.port(), user, verifier, timedOut, "jump host " + j + ": ", () -> {
                    bastion.connect(j.address(), j.port());
                    login.authenticate(bastion, user);
                });
                jumpClient = bastion;
            }
            dial(host.address(), host.port(), login.user(), verifier, timedOut, "", () -> {
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
            closeQuietly(target);
            closeQuietly(bastion);
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
    boolean responds(Duration within) {
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
        closeQuietly(client);
        closeQuietly(jumpClient);
        client = null;
        jumpClient = null;
    }

    /** Closes a client (which disconnects it) or a session, if any, that may be gone already. */
    static void closeQuietly(AutoCloseable closeable) {
        if (closeable == null) {
            return;
        }
        try {
            closeable.close();
        } catch (Exception e) {
            // Closing a connection or a session that is already gone.
        }
    }
}
