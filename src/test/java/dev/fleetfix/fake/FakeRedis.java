package dev.fleetfix.fake;

import dev.fleetfix.redis.RedisException;
import dev.fleetfix.redis.RedisNode;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A Redis that answers from maps. After {@link #restart(boolean)} it refuses connections for a few
 * polls, then reports loading, then is healthy (or stays down).
 */
public final class FakeRedis {
    private final String host;
    private final Map<String, String> replication = new HashMap<>(Map.of("role", "master", "master_repl_offset", "0"));
    private final AtomicInteger downFor = new AtomicInteger();
    private final AtomicInteger loadingFor = new AtomicInteger();
    private final AtomicInteger restarts = new AtomicInteger();
    private volatile boolean dead;

    FakeRedis(String host) {
        this.host = host;
    }

    public int restarts() {
        return restarts.get();
    }

    public void restart(boolean breaks) {
        restarts.incrementAndGet();
        downFor.set(2);
        loadingFor.set(1);
        dead = breaks;
    }

    public void kill() {
        dead = true;
    }

    public void replicaOf(String primaryHost, int port, long offset, String link) {
        replication.put("role", "slave");
        replication.put("master_host", primaryHost);
        replication.put("master_port", Integer.toString(port));
        replication.put("master_link_status", link);
        replication.put("master_sync_in_progress", "0");
        replication.put("slave_repl_offset", Long.toString(offset));
    }

    public void set(String key, String value) {
        replication.put(key, value);
    }

    /** A connection, as a RedisConnector would open it. */
    public RedisNode connect() {
        if (dead || downFor.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
            throw new RedisException(host, "connection refused (fake)", null);
        }
        return new Node();
    }

    private final class Node implements RedisNode {
        @Override
        public String hostName() {
            return host;
        }

        @Override
        public String ping() {
            return "PONG";
        }

        @Override
        public Map<String, String> info(String section) {
            return switch (section) {
                case "replication" -> Map.copyOf(replication);
                case "persistence" -> Map.of(
                        "loading", loadingFor.getAndUpdate(n -> Math.max(0, n - 1)) > 0 ? "1" : "0");
                case "server" -> Map.of("redis_version", "7.0.15");
                default -> Map.of();
            };
        }

        @Override
        public Optional<String> configGet(String parameter) {
            return Optional.empty();
        }

        @Override
        public Object command(String name, String... args) {
            return "OK";
        }

        @Override
        public void close() {}
    }
}
