package dev.fleetfix.steps.model;

import dev.fleetfix.Sleeper;
import dev.fleetfix.redis.RedisConnector;
import dev.fleetfix.transport.ShellFactory;
import java.time.Clock;
import java.util.Objects;

/**
 * The ports a run talks through. The composition root builds one, and it reaches every {@link StepContext}
 * unchanged: the apply service, the runner and the host runs hand it on without unpacking it, so a fake given to
 * the root (a test's clock, its fake hosts) is what every step sees.
 *
 * @param shells opens a host's shell (a run opens each host's once, and closes them when it ends)
 * @param redis connects to a host's Redis
 * @param clock the clock of windows, timeouts, backups' names and run ids
 * @param sleeper waits between polls and retries
 */
public record RunPorts(ShellFactory shells, RedisConnector redis, Clock clock, Sleeper sleeper) {
    public RunPorts {
        Objects.requireNonNull(shells, "shells");
        Objects.requireNonNull(redis, "redis");
        Objects.requireNonNull(clock, "clock");
        Objects.requireNonNull(sleeper, "sleeper");
    }
}
