package dev.fleetfix.lab;

import java.util.List;
import java.util.Objects;
import java.util.OptionalInt;

/**
 * A running lab host: its name, where its sshd, Redis and, when it runs one, Redis Sentinel listen, and what it
 * runs.
 *
 * @param redisPort the port of its (first) Redis instance
 * @param sentinelPort the port of the host's Sentinel on {@code address}, empty when it runs none
 * @param redisPorts the ports of every Redis instance, {@code redisPort} first
 * @param server the Redis server it runs
 * @param init what runs as its PID 1
 * @param shape what starts its Redis
 */
public record LabHost(
        String name,
        String address,
        int sshPort,
        int redisPort,
        OptionalInt sentinelPort,
        List<Integer> redisPorts,
        LabServer server,
        LabInit init,
        LabServiceShape shape) {
    public LabHost {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(address, "address");
        Objects.requireNonNull(sentinelPort, "sentinelPort");
        Objects.requireNonNull(server, "server");
        Objects.requireNonNull(init, "init");
        Objects.requireNonNull(shape, "shape");
        redisPorts = List.copyOf(redisPorts);
        if (redisPorts.isEmpty() || redisPorts.get(0) != redisPort) {
            throw new IllegalArgumentException(
                    "host " + name + ": redisPorts must start with redisPort " + redisPort + ", was " + redisPorts);
        }
    }

    /** A host whose Redis runs under its distribution's units (or init scripts). */
    public LabHost(
            String name,
            String address,
            int sshPort,
            int redisPort,
            OptionalInt sentinelPort,
            List<Integer> redisPorts,
            LabServer server,
            LabInit init) {
        this(name, address, sshPort, redisPort, sentinelPort, redisPorts, server, init, LabServiceShape.DEBIAN_UNIT);
    }

    /** A Debian 12 systemd host with one Redis 7.0 instance. */
    public LabHost(String name, String address, int sshPort, int redisPort, OptionalInt sentinelPort) {
        this(name, address, sshPort, redisPort, sentinelPort, List.of(redisPort), LabServer.REDIS_7_0, LabInit.SYSTEMD);
    }

    /** A host without Sentinel. */
    public LabHost(String name, String address, int sshPort, int redisPort) {
        this(name, address, sshPort, redisPort, OptionalInt.empty());
    }

    /**
     * The service of each Redis instance, in port order: {@code redis-server} (or {@code valkey-server}) for a
     * single instance, Debian's template instances {@code redis-server@6380} for several; for the other shapes
     * the unit that runs it ({@code redis-server@main}, {@code redis_6379}, {@code supervisor}).
     */
    public List<String> services() {
        return shape.services(server, redisPorts);
    }
}
