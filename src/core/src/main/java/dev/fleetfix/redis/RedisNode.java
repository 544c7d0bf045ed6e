package dev.fleetfix.redis;

import java.util.Map;
import java.util.Optional;

/**
 * One Redis server, as fleetfix needs to see it. The {@code jedis} package holds the only
 * implementation that talks to a real server; unit tests use fakes of this port.
 *
 * <p>Failures to reach or talk to Redis throw {@link RedisException}.
 */
public interface RedisNode extends AutoCloseable {

    /** The inventory name of the host this Redis runs on. */
    String hostName();

    /** PING; returns the reply ("PONG"). */
    String ping();

    /** INFO for one section ("server", "replication", "persistence", "memory", ...), or "everything". */
    Map<String, String> info(String section);

    /** CONFIG GET of one parameter; empty when Redis does not know it (older versions). */
    Optional<String> configGet(String parameter);

    /** Runs any command and returns its reply as text, for the rarer calls (BGSAVE, FAILOVER, DBSIZE...). */
    Object command(String name, String... args);

    @Override
    void close();
}
