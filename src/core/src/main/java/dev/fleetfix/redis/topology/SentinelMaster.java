package dev.fleetfix.redis.topology;

import dev.fleetfix.redis.ReplyFields;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * One primary a Sentinel monitors, as {@code SENTINEL MASTERS} reports it.
 *
 * @param name the name Sentinel knows it by ({@code sentinel monitor NAME ...})
 * @param ip the address Sentinel reaches it at
 * @param port its port
 * @param flags {@code master}, plus {@code s_down}, {@code o_down}, {@code failover_in_progress}...
 * @param replicas {@code num-slaves}: replicas Sentinel knows of
 * @param otherSentinels {@code num-other-sentinels}
 * @param quorum sentinels that must agree the primary is down before an automatic failover
 */
public record SentinelMaster(
        String name, String ip, int port, String flags, int replicas, int otherSentinels, int quorum) {

    public SentinelMaster {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(ip, "ip");
        Objects.requireNonNull(flags, "flags");
    }

    /**
     * Reads one entry of a {@code SENTINEL MASTERS} reply: a flat list of field, value (RESP2) or a
     * map (RESP3). Empty when it lacks a name, ip or port.
     */
    public static Optional<SentinelMaster> parse(Object entry) {
        Map<String, String> fields = ReplyFields.of(entry);
        String name = fields.get("name");
        String ip = fields.get("ip");
        long port = ReplicaLink.number(fields.get("port"), -1);
        if (name == null || ip == null || port < 1 || port > 65535) {
            return Optional.empty();
        }
        return Optional.of(new SentinelMaster(
                name,
                ip,
                (int) port,
                fields.getOrDefault("flags", "?"),
                (int) ReplicaLink.number(fields.get("num-slaves"), 0),
                (int) ReplicaLink.number(fields.get("num-other-sentinels"), 0),
                (int) ReplicaLink.number(fields.get("quorum"), 0)));
    }

    /** Whether this is the Redis at {@code address:port}. */
    public boolean at(String address, int redisPort) {
        return ip.equals(address) && port == redisPort;
    }

    /** Sentinel considers it down (subjectively or objectively), or is failing it over. */
    public boolean troubled() {
        return flags.contains("s_down") || flags.contains("o_down") || flags.contains("failover_in_progress");
    }

    /** "'lab' at 127.0.0.11:6379 (quorum 2 of 3 sentinels)". */
    public String describe() {
        return "'" + name + "' at " + ip + ":" + port + " (quorum " + quorum + " of " + (otherSentinels + 1)
                + " sentinels" + (troubled() ? ", " + flags : "") + ")";
    }
}
