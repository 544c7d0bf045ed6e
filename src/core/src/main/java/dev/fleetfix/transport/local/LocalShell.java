package dev.fleetfix.transport.local;

import dev.fleetfix.Durations;
import dev.fleetfix.inventory.Host;
import dev.fleetfix.transport.AtomicWrite;
import dev.fleetfix.transport.Become;
import dev.fleetfix.transport.BecomeAnswer;
import dev.fleetfix.transport.Command;
import dev.fleetfix.transport.ExecResult;
import dev.fleetfix.transport.KillAfter;
import dev.fleetfix.transport.RemoteShell;
import dev.fleetfix.transport.StreamDrain;
import dev.fleetfix.transport.TransportException;
import dev.fleetfix.transport.TransportException.Kind;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Runs commands on the control node itself ({@code ansible_connection: local}) through {@code sh -c},
 * with the same semantics as SSH: timeout, become through {@link Become} ({@code sudo -n}, or sudo or su answered
 * with the host's become password) unless already root.
 */
public final class LocalShell implements RemoteShell {

    /** How long to wait for the output pipes to close once the process tree is gone. */
    private static final Duration DRAIN_GRACE = Duration.ofSeconds(2);

    private final Host host;
    private final boolean root;
    private final Become become;

    public LocalShell(Host host) {
        this(host, "root".equals(System.getProperty("user.name")));
    }

    /** For tests: {@code root} says whether this process already runs as root. */
    LocalShell(Host host, boolean root) {
        this(host, root, Become.of(host));
    }

    /** For tests: {@code become} runs stand-ins for sudo and su. */
    LocalShell(Host host, boolean root, Become become) {
        this.host = Objects.requireNonNull(host, "host");
        this.root = root;
        this.become = Objects.requireNonNull(become, "become");
    }

    @Override
    public String hostName() {
        return host.name();
    }

    @Override
    public ExecResult exec(Command command) {
        return run(command.script(), command.become(), command.timeout(), null);
    }

    @Override
    public void put(String remotePath, byte[] content, int mode, boolean become) {
        ExecResult result = run(AtomicWrite.script(remotePath, mode), become, Command.DEFAULT_TIMEOUT, content);
        if (!result.ok()) {
            throw TransportException.afterSending(
                    host, Kind.BROKEN, "writing " + remotePath + " failed: " + result.errorText(), null);
        }
    }

    /** Whether a command that asks for root runs through sudo or su here. */
    private boolean raised(boolean asRoot) {
        return asRoot && host.become() && !root;
    }

    /**
     * The argv for a script: sudo or su in front when it must run as root and we are not ({@link Become}), with a
     * {@link KillAfter} deadline, since we could not kill root's processes ourselves.
     */
    List<String> argv(String script, boolean asRoot, Duration timeout) {
        return raised(asRoot) ? become.argv(timeout, script) : List.of("sh", "-c", script);
    }

    private ExecResult run(String script, boolean asRoot, Duration timeout, byte[] stdin) {
        long start = System.nanoTime();
        Process process;
        try {
            process = new ProcessBuilder(argv(script, asRoot, timeout)).start();
        } catch (IOException e) {
            throw new TransportException(host, Kind.UNREACHABLE, "cannot start sh: " + e.getMessage(), e);
        }
        BecomeAnswer answer = become.answer(raised(asRoot), process.getOutputStream());
        StreamDrain out = StreamDrain.start(process.getInputStream(), "local-stdout-" + host.name());
        StreamDrain err = StreamDrain.start(answer.stderr(process.getErrorStream()), "local-stderr-" + host.name());
        try {
            // with sudo or su in between, the command's input is written once it runs as root, never to them
            feed(process, answer.awaitStart(timeout) ? stdin : null);
            if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                killTree(process);
                throw TransportException.afterSending(
                        host,
                        Kind.TIMEOUT,
                        "command timed out after " + Durations.typed(timeout) + ": " + script,
                        null);
            }
            String stdout = out.text(DRAIN_GRACE);
            String stderr = err.text(DRAIN_GRACE);
            answer.check(host);
            return new ExecResult(
                    process.exitValue(),
                    stdout,
                    stderr,
                    Duration.ofNanos(System.nanoTime() - start),
                    out.dropped() + err.dropped());
        } catch (InterruptedException e) {
            killTree(process);
            Thread.currentThread().interrupt();
            throw TransportException.afterSending(host, Kind.BROKEN, "interrupted while running: " + script, e);
        } catch (TimeoutException e) {
            // The shell exited but something it started in the background still holds its output open.
            throw TransportException.afterSending(
                    host, Kind.BROKEN, "command exited but its output stayed open (background process?): " + script, e);
        } catch (UncheckedIOException e) {
            throw TransportException.afterSending(host, Kind.BROKEN, "reading output failed: " + e.getMessage(), e);
        }
    }

    private static void feed(Process process, byte[] stdin) {
        try (OutputStream in = process.getOutputStream()) {
            if (stdin != null) {
                in.write(stdin);
            }
        } catch (IOException e) {
            // The command exited without reading its input; its exit code tells what happened.
        }
    }

    private static void killTree(Process process) {
        process.descendants().forEach(ProcessHandle::destroyForcibly);
        process.destroyForcibly();
    }

    @Override
    public void close() {
        // Nothing is held open between commands.
    }
}
