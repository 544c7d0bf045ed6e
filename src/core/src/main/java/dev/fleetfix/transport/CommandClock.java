package dev.fleetfix.transport;

import java.time.Duration;
import java.util.Objects;
import java.util.function.LongSupplier;

/**
 * The time of one command on a host, in two parts. Getting it started (a session on the connection, made again first
 * when it broke, the exec request, sudo or su answered) is bounded as a login is, by the connect timeout; the
 * command's own timeout ({@link Command#timeout()}) counts from when the host started it, as the host's own deadline
 * ({@link KillAfter}) does. So a host that waited for a fork slot, for its login or for a busy sshd is never charged
 * for the wait: at {@code --forks 100} on hundreds of hosts, a command that started late still gets its whole timeout.
 *
 * <p>Not thread-safe: one command's thread reads it.
 */
public final class CommandClock {
    private final Duration timeout;
    private final Duration startBound;
    private final LongSupplier nanos;
    private final long created;
    private long started;
    private boolean hasStarted;

    private CommandClock(Duration timeout, Duration startBound, LongSupplier nanos) {
        this.timeout = positive(timeout, "timeout");
        this.startBound = positive(startBound, "startBound");
        this.nanos = Objects.requireNonNull(nanos, "nanos");
        this.created = nanos.getAsLong();
    }

    /**
     * A clock on {@link System#nanoTime()}, from now: the command is being started.
     *
     * @param timeout the command's own timeout, from its start
     * @param startBound how long getting it started may take (the connect timeout)
     */
    public static CommandClock starting(Duration timeout, Duration startBound) {
        return new CommandClock(timeout, startBound, System::nanoTime);
    }

    /** For tests: a clock read from {@code nanos} (a test clock's time, in nanoseconds). */
    public static CommandClock starting(Duration timeout, Duration startBound, LongSupplier nanos) {
        return new CommandClock(timeout, startBound, nanos);
    }

    /** The host started the command: its timeout counts from now. Later calls change nothing. */
    public void started() {
        if (!hasStarted) {
            started = nanos.getAsLong();
            hasStarted = true;
        }
    }

    public boolean hasStarted() {
        return hasStarted;
    }

    /** What is left: of the command's timeout once it started, else of the time to start it; never negative. */
    public Duration remaining() {
        long now = nanos.getAsLong();
        long left = hasStarted ? timeout.toNanos() - (now - started) : startBound.toNanos() - (now - created);
        return Duration.ofNanos(Math.max(0, left));
    }

    public boolean expired() {
        return remaining().isZero();
    }

    /** The command's own timeout, as its error names it. */
    public Duration timeout() {
        return timeout;
    }

    /** How long the whole, from when the clock was made: what the command's result reports. */
    public Duration elapsed() {
        return Duration.ofNanos(nanos.getAsLong() - created);
    }

    private static Duration positive(Duration d, String name) {
        Objects.requireNonNull(d, name);
        if (d.isNegative() || d.isZero()) {
            throw new IllegalArgumentException(name + " must be positive, was " + d);
        }
        return d;
    }
}
