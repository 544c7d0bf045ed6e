package dev.fleetfix.steps.restart;

import dev.fleetfix.redis.RedisNode;
import dev.fleetfix.redis.RedisServer;
import dev.fleetfix.redis.RedisVersion;
import dev.fleetfix.redis.topology.NodeRole;
import dev.fleetfix.redis.topology.NodeState;
import dev.fleetfix.redis.topology.ReplicaLink;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;

/**
 * What a host's Redis looked like just before its restart: role and replicas, persistence, version.
 *
 * @param answered whether Redis answered
 * @param down when it did not answer: whether it is known not to run (connection refused, its unit
 *     inactive and nothing listening on its port), so that nothing is in memory. False when it may
 *     run and hold data (it refused our credentials, timed out, listens elsewhere).
 * @param replication its replication state; {@link NodeState#error()} says why it did not answer
 * @param masterHost a replica's primary address
 * @param masterPort a replica's primary port
 * @param persistence RDB and AOF, as far as they could be read
 * @param version {@code redis_version}
 * @param keyspace keys and keys with an expiry per db
 * @param cluster whether it runs in cluster mode ({@code cluster_enabled:1})
 * @param credentialsRefused it did not answer because it refused fleetfix's credentials: what to fix is the
 *     inventory's redis_password / redis_user, not the restart
 * @param serverFull it did not answer because it refused the connection at its {@code maxclients}: it runs, and
 *     what to fix is its number of clients, not the address fleetfix reaches it at
 */
public record RedisSnapshot(
        boolean answered,
        boolean down,
        NodeState replication,
        Optional<String> masterHost,
        int masterPort,
        Persistence persistence,
        String version,
        Map<Integer, KeyCount> keyspace,
        boolean cluster,
        boolean credentialsRefused,
        boolean serverFull) {

    /** One db's line of {@code INFO keyspace}. */
    public record KeyCount(long keys, long expires) {}

    private static final Persistence NOT_READ =
            new Persistence(Optional.empty(), Optional.empty(), "", Optional.of("Redis did not answer"));

    public RedisSnapshot {
        Objects.requireNonNull(replication, "replication");
        Objects.requireNonNull(masterHost, "masterHost");
        Objects.requireNonNull(persistence, "persistence");
        Objects.requireNonNull(version, "version");
        keyspace = Map.copyOf(keyspace);
        if (answered && (down || credentialsRefused || serverFull)) {
            throw new IllegalArgumentException("a Redis that answered is not down and took the credentials");
        }
    }

    /** A snapshot whose Redis, when it did not answer, refused neither the credentials nor the connection. */
    public RedisSnapshot(
            boolean answered,
            boolean down,
            NodeState replication,
            Optional<String> masterHost,
            int masterPort,
            Persistence persistence,
            String version,
            Map<Integer, KeyCount> keyspace,
            boolean cluster) {
        this(
                answered,
                down,
                replication,
                masterHost,
                masterPort,
                persistence,
                version,
                keyspace,
                cluster,
                false,
                false);
    }

    /** Redis is known not to run: nothing is in memory. {@code why} says how that is known. */
    public static RedisSnapshot down(String host, String why) {
        return unanswered(host, why, true, false, false);
    }

    /** Redis did not answer, and may run with data in memory: {@code why} says what was seen. */
    public static RedisSnapshot unknown(String host, String why) {
        return unanswered(host, why, false, false, false);
    }

    /** Redis runs (it answered the connection) but refused fleetfix's credentials: {@code why} says how. */
    public static RedisSnapshot credentialsRefused(String host, String why) {
        return unanswered(host, why, false, true, false);
    }

    /** Redis runs (it answered the connection) but refused it: it has {@code maxclients} clients already. */
    public static RedisSnapshot serverFull(String host, String why) {
        return unanswered(host, why, false, false, true);
    }

    private static RedisSnapshot unanswered(
            String host, String why, boolean down, boolean credentialsRefused, boolean serverFull) {
        return new RedisSnapshot(
                false,
                down,
                NodeState.unreachable(host, why),
                Optional.empty(),
                0,
                NOT_READ,
                "?",
                Map.of(),
                false,
                credentialsRefused,
                serverFull);
    }

    /** Roles only (INFO replication), for after a restart: persistence is not read. */
    public static RedisSnapshot roles(String host, RedisNode node) {
        Map<String, String> repl = node.info("replication");
        return new RedisSnapshot(
                true,
                false,
                NodeState.fromInfo(host, repl),
                Optional.ofNullable(repl.get("master_host")),
                (int) ReplicaLink.number(repl.get("master_port"), 0),
                new Persistence(Optional.empty(), Optional.empty(), "", Optional.of("not read")),
                "?",
                Map.of(),
                false);
    }

    /** Why Redis did not answer ("" when it did). */
    public String why() {
        return replication.error().orElse("");
    }

    /** Reads INFO replication, persistence, server, keyspace and cluster, and persistence as {@code reader} can. */
    public static RedisSnapshot observe(String host, RedisNode node, PersistenceReader reader) {
        Map<String, String> repl = node.info("replication");
        Map<String, String> server = node.info("server");
        Persistence persistence = reader.read(node, node.info("persistence"), server);
        return new RedisSnapshot(
                true,
                false,
                NodeState.fromInfo(host, repl),
                Optional.ofNullable(repl.get("master_host")),
                (int) ReplicaLink.number(repl.get("master_port"), 0),
                persistence,
                server.getOrDefault("redis_version", "?"),
                keyspace(node.info("keyspace")),
                "1".equals(node.info("cluster").get("cluster_enabled")));
    }

    /** {@code db0:keys=10,expires=2,avg_ttl=0} per db. */
    public static Map<Integer, KeyCount> keyspace(Map<String, String> info) {
        Map<Integer, KeyCount> counts = new TreeMap<>();
        info.forEach((key, value) -> {
            if (!key.matches("db\\d+")) {
                return;
            }
            long keys = 0;
            long expires = 0;
            for (String part : value.split(",")) {
                String[] kv = part.split("=", 2);
                if (kv.length == 2 && kv[0].equals("keys")) {
                    keys = ReplicaLink.number(kv[1], 0);
                } else if (kv.length == 2 && kv[0].equals("expires")) {
                    expires = ReplicaLink.number(kv[1], 0);
                }
            }
            counts.put(Integer.parseInt(key.substring(2)), new KeyCount(keys, expires));
        });
        return counts;
    }

    public NodeRole role() {
        return replication.role();
    }

    public List<ReplicaLink> replicas() {
        return replication.replicas();
    }

    /** Whether the data set is on disk: empty when that could not be read. */
    public Optional<Boolean> persistent() {
        return persistence.persistent();
    }

    public boolean aof() {
        return persistence.aofOn();
    }

    /** "save points" / "appendonly" / "no persistence (save \"\", appendonly no)" / what is unknown. */
    public String persistenceText() {
        return persistence.text();
    }

    /**
     * Which commands it has, from {@code redis_version} (Valkey reports there the Redis it is
     * compatible with); empty when the version could not be read.
     */
    public Optional<RedisServer> commands() {
        return RedisVersion.find(version).map(RedisServer::redis);
    }

    /** Redis 6.2 or later: has the FAILOVER command. */
    public boolean hasFailoverCommand() {
        return commands().map(RedisServer::hasFailover).orElse(false);
    }
}
