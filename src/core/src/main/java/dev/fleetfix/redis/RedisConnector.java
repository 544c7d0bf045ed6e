package dev.fleetfix.redis;

import dev.fleetfix.inventory.Host;
import java.time.Duration;

/** Connects to a host's Redis as its {@link dev.fleetfix.inventory.RedisEndpoint} says. */
@FunctionalInterface
public interface RedisConnector {
    RedisNode connect(Host host, Duration timeout);
}
