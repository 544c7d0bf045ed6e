package dev.fleetfix.steps.restart;

import dev.fleetfix.redis.RedisNode;
import dev.fleetfix.redis.RedisServer;
import dev.fleetfix.redis.RedisVersion;
import dev.fleetfix.rollout.topology.NodeRole;
import dev.fleetfix.rollout.topology.NodeState;
import dev.fleetfix.rollout.topology.ReplicaLink;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;

/**
 * What a host's Redis looked like just before its restart: role and replicas, persistence, version.
 *
 * @param answered false when Redis did not answer (nothing in memory to lose)
 * @param replication its replication state
 * @param masterHost a replica's primary address
 * @param masterPort a replica's primary port
 * @param rdb whether {@code save} has save points
 * @param aof whether {@code appendonly} is on
 * @param version {@code redis_version}
 * @param keyspace keys and keys with an expiry per db
 * @param cluster whether it runs in cluster mode ({@code cluster_enabled:1})
 */
public record RedisSnapshot(
        boolean answered,
        NodeState replication,
        Optional<String> masterHost,
        int masterPort,
        boolean rdb,
        boolean aof,
        String version,
        Map<Integer, KeyCount> keyspace,
        boolean cluster) {

    /** One db's line of {@code INFO keyspace}. */
    public record KeyCount(long keys, long expires) {}

    public RedisSnapshot {
        Objects.requireNonNull(replication, "replication");
        Objects.requireNonNull(masterHost, "masterHost");
        Objects.requireNonNull(version, "version");
        keyspace = Map.copyOf(keyspace);
    }

    public static RedisSnapshot down(String host, String why) {
        return new RedisSnapshot(
                false, NodeState.unreachable(host, why), Optional.empty(), 0, false, false, "?", Map.of(), false);
    }

    /** Reads INFO replication, persistence, server, keyspace, cluster and CONFIG GET save. */
    public static RedisSnapshot observe(String host, RedisNode node) {
        Map<String, String> repl = node.info("replication");
        Map<String, String> persistence = node.info("persistence");
        String version = node.info("server").getOrDefault("redis_version", "?");
        boolean rdb = node.configGet("save").map(s -> !s.isBlank()).orElse(false);
        boolean aof = "1".equals(persistence.get("aof_enabled"));
        return new RedisSnapshot(
                true,
                NodeState.fromInfo(host, repl),
                Optional.ofNullable(repl.get("master_host")),
                (int) ReplicaLink.number(repl.get("master_port"), 0),
                rdb,
                aof,
                version,
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

    public boolean persistent() {
        return rdb || aof;
    }

    /** "save points" / "appendonly" / "no persistence (save \"\", appendonly no)". */
    public String persistenceText() {
        if (aof && rdb) {
            return "appendonly and save points";
        }
        if (aof) {
            return "appendonly";
        }
        return rdb ? "save points" : "no persistence (save \"\", appendonly no)";
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
