package dev.fleetfix.redis;

import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * What a server is (Redis or Valkey, which version) and which commands it has: the one place that
 * decides which command fleetfix sends to which era, read from {@code INFO server}.
 *
 * <p>Valkey reports {@code server_name:valkey} and its own {@code valkey_version}; its {@code
 * redis_version} stays at 7.2.4, the Redis it forked from, and says which Redis commands it has.
 *
 * @param flavour Redis or Valkey
 * @param version the real version, to report ({@code valkey_version} on Valkey)
 * @param redisCompat the Redis version whose commands it has ({@code redis_version})
 * @param mode {@code redis_mode} or {@code server_mode}: standalone, cluster or sentinel; empty when absent
 */
public record RedisServer(Flavour flavour, RedisVersion version, RedisVersion redisCompat, Optional<String> mode) {

    /** Which server. */
    public enum Flavour {
        REDIS("Redis", "redis"),
        VALKEY("Valkey", "valkey");

        private final String title;
        private final String word;

        Flavour(String title, String word) {
            this.title = title;
            this.word = word;
        }

        /** "Redis", "Valkey". */
        public String title() {
            return title;
        }

        /** "redis", "valkey": the prefix of its service, binaries and config directory. */
        public String word() {
            return word;
        }
    }

    public RedisServer {
        Objects.requireNonNull(flavour, "flavour");
        Objects.requireNonNull(version, "version");
        Objects.requireNonNull(redisCompat, "redisCompat");
        Objects.requireNonNull(mode, "mode");
    }

    /** A plain Redis of this version (tests, and servers known only by version). */
    public static RedisServer redis(RedisVersion version) {
        return new RedisServer(Flavour.REDIS, version, version, Optional.empty());
    }

    /**
     * Reads {@code INFO server}. Empty when it holds no {@code redis_version} (a renamed or refused
     * INFO): then which commands the server has is unknown, and callers must say so.
     */
    public static Optional<RedisServer> fromInfo(Map<String, String> server) {
        Optional<RedisVersion> compat = RedisVersion.find(server.get("redis_version"));
        if (compat.isEmpty()) {
            return Optional.empty();
        }
        boolean valkey =
                "valkey".equalsIgnoreCase(server.getOrDefault("server_name", "").strip())
                        || server.containsKey("valkey_version");
        Flavour flavour = valkey ? Flavour.VALKEY : Flavour.REDIS;
        RedisVersion version =
                valkey ? RedisVersion.find(server.get("valkey_version")).orElse(compat.get()) : compat.get();
        Optional<String> mode = Optional.ofNullable(server.get("server_mode"))
                .or(() -> Optional.ofNullable(server.get("redis_mode")))
                .map(m -> m.strip().toLowerCase(Locale.ROOT))
                .filter(m -> !m.isEmpty());
        return Optional.of(new RedisServer(flavour, version, compat.get(), mode));
    }

    /** Reads {@code INFO server} from a node. */
    public static Optional<RedisServer> of(RedisNode node) {
        return fromInfo(node.info("server"));
    }

    /** "Redis 2.8.19", "Valkey 8.1.1". */
    public String describe() {
        return flavour.title() + " " + version;
    }

    /** UNLINK (4.0); before, DEL, which frees in the foreground. */
    public boolean hasUnlink() {
        return redisCompat.atLeast(4, 0);
    }

    /** "UNLINK" or "DEL". */
    public String deleteCommand() {
        return hasUnlink() ? "UNLINK" : "DEL";
    }

    /** BGSAVE SCHEDULE (6.2): waits for a running AOF rewrite instead of failing. */
    public boolean hasBgsaveSchedule() {
        return redisCompat.atLeast(6, 2);
    }

    /** REPLICAOF (5.0); before, SLAVEOF (still accepted later). */
    public String replicaOfCommand() {
        return redisCompat.atLeast(5, 0) ? "REPLICAOF" : "SLAVEOF";
    }

    /** CLIENT PAUSE (3.0), which pauses every client command. */
    public boolean hasClientPause() {
        return redisCompat.atLeast(3, 0);
    }

    /** CLIENT PAUSE ms WRITE (6.2): pauses writes only, reads go on. */
    public boolean hasClientPauseWrite() {
        return redisCompat.atLeast(6, 2);
    }

    /** FAILOVER (6.2). */
    public boolean hasFailover() {
        return redisCompat.atLeast(6, 2);
    }

    /** CONFIG REWRITE (2.8). */
    public boolean hasConfigRewrite() {
        return redisCompat.atLeast(2, 8);
    }

    /** ACL (6.0). */
    public boolean hasAcl() {
        return redisCompat.atLeast(6, 0);
    }

    /** HELLO and RESP3 (6.0). */
    public boolean hasHello() {
        return redisCompat.atLeast(6, 0);
    }

    /** The {@code disable-thp} setting (6.2), with which Redis turns THP off for itself. */
    public boolean hasDisableThp() {
        return redisCompat.atLeast(6, 2);
    }
}
