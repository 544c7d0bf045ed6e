package dev.fleetfix.inventory;

import java.util.Objects;

/**
 * How to reach a host's Redis from the control node.
 *
 * @param address host name or IP that Redis listens on (defaults to the host's address)
 * @param port Redis port, 6379 by default
 * @param auth where the password comes from
 * @param tls whether to speak TLS
 * @param serviceUnit the systemd unit that runs this Redis (redis-server by default)
 */
public record RedisEndpoint(String address, int port, RedisAuth auth, boolean tls, String serviceUnit) {
    public static final int DEFAULT_PORT = 6379;
    public static final String DEFAULT_UNIT = "redis-server";

    public RedisEndpoint {
        Objects.requireNonNull(address, "address");
        Objects.requireNonNull(auth, "auth");
        Objects.requireNonNull(serviceUnit, "serviceUnit");
        if (port < 1 || port > 65535) {
            throw new IllegalArgumentException("redis_port: must be 1..65535, was " + port);
        }
        UnitName.problem(serviceUnit).ifPresent(problem -> {
            throw new IllegalArgumentException("redis_service: " + problem);
        });
    }

    public static RedisEndpoint defaultsFor(String address) {
        return new RedisEndpoint(address, DEFAULT_PORT, RedisAuth.NONE, false, DEFAULT_UNIT);
    }

    @Override
    public String toString() {
        return address + ":" + port + (tls ? " (tls)" : "");
    }
}
