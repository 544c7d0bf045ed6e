package dev.fleetfix.health;

import dev.fleetfix.Sleeper;
import dev.fleetfix.redis.RedisNode;
import java.time.Clock;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * The host a gate watches, and the time it runs on.
 *
 * @param hostName inventory name, for messages
 * @param redis opens a fresh connection to the host's Redis (a restart breaks the old one)
 * @param primaries opens a connection to a replica's primary by its address and port, when fleetfix
 *     knows it (it is in the inventory); empty when not
 * @param clock the run's clock
 * @param sleeper how to wait between polls
 * @param pollInterval time between two polls
 * @param waits told when a gate has waited noticeably long
 */
public record GateTarget(
        String hostName,
        Connect redis,
        Primaries primaries,
        Clock clock,
        Sleeper sleeper,
        Duration pollInterval,
        WaitListener waits) {

    public GateTarget {
        Objects.requireNonNull(waits, "waits");
        Objects.requireNonNull(hostName, "hostName");
        Objects.requireNonNull(redis, "redis");
        Objects.requireNonNull(primaries, "primaries");
        Objects.requireNonNull(clock, "clock");
        Objects.requireNonNull(sleeper, "sleeper");
        if (pollInterval.isNegative() || pollInterval.isZero()) {
            throw new IllegalArgumentException("pollInterval must be positive, was " + pollInterval);
        }
    }

    /** A target whose waits nobody is told about. */
    public GateTarget(
            String hostName, Connect redis, Primaries primaries, Clock clock, Sleeper sleeper, Duration pollInterval) {
        this(hostName, redis, primaries, clock, sleeper, pollInterval, WaitListener.none());
    }

    /** Opens a connection that answers within {@code timeout}; throws RedisException when it cannot. */
    @FunctionalInterface
    public interface Connect {
        RedisNode open(Duration timeout);
    }

    /** Finds and opens the primary a replica names in INFO replication. */
    @FunctionalInterface
    public interface Primaries {
        Optional<RedisNode> open(String address, int port, Duration timeout);

        static Primaries none() {
            return (address, port, timeout) -> Optional.empty();
        }
    }
}
