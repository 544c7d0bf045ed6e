package dev.fleetfix.transport;

import java.time.Duration;
import java.util.Objects;

/**
 * A shell command line to run on a host. The script is run by {@code sh -c}; every value spliced
 * into it must have gone through {@link ShellQuote#quote(String)}.
 *
 * @param script the command line
 * @param become run as root through {@code sudo -n} (when the host is configured for become)
 * @param timeout how long to wait for the command to finish
 */
public record Command(String script, boolean become, Duration timeout) {
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(60);

    public Command {
        Objects.requireNonNull(script, "script");
        Objects.requireNonNull(timeout, "timeout");
        if (timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException("timeout must be positive, was " + timeout);
        }
    }

    public static Command of(String script) {
        return new Command(script, false, DEFAULT_TIMEOUT);
    }

    /** The same command, run as root. */
    public Command asRoot() {
        return new Command(script, true, timeout);
    }

    public Command withTimeout(Duration newTimeout) {
        return new Command(script, become, newTimeout);
    }
}
