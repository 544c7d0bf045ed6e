package dev.fleetfix.lab;

import java.util.List;
import java.util.stream.IntStream;

/**
 * What starts a lab host's Redis, each the way an operator sets it up on a Debian 12 host. All but
 * {@link #DEBIAN_UNIT} run Debian 12's Redis 7.0 under systemd, one instance on the host's Redis port.
 */
public enum LabServiceShape {
    /** Debian's {@code redis-server} unit, or its template instances {@code redis-server@PORT} for several. */
    DEBIAN_UNIT,
    /**
     * One instance of Debian's template unit, {@code redis-server@main}, reading {@code /etc/redis/redis-main.conf}
     * (a copy of {@code redis.conf}, as Debian's README tells); {@code redis-server.service} stays disabled.
     */
    DEBIAN_INSTANCE,
    /**
     * Redis installed the pre-package way ({@code make install} and {@code utils/install_server.sh}): binaries in
     * {@code /usr/local/bin}, {@code /etc/redis/PORT.conf}, a SysV script {@code /etc/init.d/redis_PORT} whose
     * {@code status} always exits 0, started through systemd's sysv-generator unit {@code redis_PORT.service}. No
     * {@code redis-server} unit and no {@code /etc/redis/redis.conf}; Redis runs as root.
     */
    INSTALL_SERVER,
    /**
     * supervisord's {@code [program:redis]} runs {@code redis-server /etc/redis/redis.conf} in the foreground;
     * Debian's {@code redis-server} unit is disabled, {@code supervisor.service} enabled.
     */
    SUPERVISORD,
    /**
     * A {@code docker compose} service runs Redis in a container on the host, its data on a volume ({@link
     * LabComposeRedis}); the unit {@code redis-compose} brings the project up at boot. Needs {@link
     * LabHostSpec#dockerCli}.
     */
    COMPOSE;

    /** The instance name of {@link #DEBIAN_INSTANCE}. */
    static final String INSTANCE = "main";

    /** The supervisord program of {@link #SUPERVISORD}. */
    static final String PROGRAM = "redis";

    /**
     * The systemd unit of each Redis instance, in port order ({@code redis-server@main}, {@code redis_6379},
     * {@code supervisor} for the manager that runs the program).
     */
    List<String> services(LabServer server, List<Integer> ports) {
        return switch (this) {
            case DEBIAN_UNIT -> ports.size() == 1
                    ? List.of(server.service())
                    : IntStream.range(0, ports.size())
                            .mapToObj(i -> server.service() + "@" + ports.get(i))
                            .toList();
            case DEBIAN_INSTANCE -> List.of(server.service() + "@" + INSTANCE);
            case INSTALL_SERVER -> List.of("redis_" + ports.get(0));
            case SUPERVISORD -> List.of("supervisor");
            case COMPOSE -> List.of(LabComposeRedis.UNIT);
        };
    }

    /** The config file the host's (first) Redis reads. */
    String configPath(LabServer server, int port) {
        return switch (this) {
            case DEBIAN_UNIT, SUPERVISORD, COMPOSE -> server.configPath();
            case DEBIAN_INSTANCE -> "/etc/redis/redis-" + INSTANCE + ".conf";
            case INSTALL_SERVER -> "/etc/redis/" + port + ".conf";
        };
    }
}
