package dev.fleetfix.redis.topology;

import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * One replica as its primary reports it in {@code INFO replication}
 * ({@code slave0:ip=10.0.0.2,port=6379,state=online,offset=1200,lag=0}).
 *
 * @param ip the address the replica connected from
 * @param port the port it listens on (REPLCONF listening-port)
 * @param state {@code online} once the initial sync is done; {@code wait_bgsave}, {@code send_bulk}...
 * @param offset the replication offset it acknowledged
 * @param lag seconds since its last acknowledgement
 * @param host the inventory host with this Redis address and port, when there is one
 */
public record ReplicaLink(String ip, int port, String state, long offset, long lag, Optional<String> host) {
    public ReplicaLink {
        Objects.requireNonNull(ip, "ip");
        Objects.requireNonNull(state, "state");
        Objects.requireNonNull(host, "host");
    }

    /** Parses the value of a {@code slaveN} field; empty when it lacks ip or port. */
    public static Optional<ReplicaLink> parse(String value) {
        Map<String, String> fields = new HashMap<>();
        for (String part : value.split(",")) {
            int eq = part.indexOf('=');
            if (eq > 0) {
                fields.put(part.substring(0, eq).strip(), part.substring(eq + 1).strip());
            }
        }
        String ip = fields.get("ip");
        long port = number(fields.get("port"), -1);
        if (ip == null || port < 1 || port > 65535) {
            return Optional.empty();
        }
        return Optional.of(new ReplicaLink(
                ip,
                (int) port,
                fields.getOrDefault("state", "?"),
                number(fields.get("offset"), -1),
                number(fields.get("lag"), -1),
                Optional.empty()));
    }

    public ReplicaLink withHost(Optional<String> inventoryHost) {
        return new ReplicaLink(ip, port, state, offset, lag, inventoryHost);
    }

    /** Online and acknowledging: {@code lag} within {@code maxLagSeconds}. */
    public boolean online(long maxLagSeconds) {
        return state.equals("online") && lag >= 0 && lag <= maxLagSeconds;
    }

    /** "lab-3 (127.0.0.13:6379)" or "127.0.0.13:6379". */
    public String describe() {
        return host.map(h -> h + " (" + ip + ":" + port + ")").orElse(ip + ":" + port);
    }

    /** A number from INFO text, or {@code fallback} when absent or not a number. */
    public static long number(String text, long fallback) {
        try {
            return text == null ? fallback : Long.parseLong(text.strip());
        } catch (NumberFormatException e) {
            return fallback;
        }
    }
}
