package dev.fleetfix.steps.restart;

import dev.fleetfix.Counts;
import dev.fleetfix.redis.RedisNode;
import dev.fleetfix.steps.restart.RedisSnapshot.KeyCount;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Proves a restart lost nothing: the key count of every db, and a canary key written (on the
 * current primary) before the restart and read (on the host) after. Fewer keys after than before
 * fails the check, unless keys with an expiry account for the difference.
 *
 * @param key the canary key, under {@code fleetfix:}
 * @param value its value, unique to this run and host
 * @param before key counts per db once the canary was visible on the host (empty when not)
 * @param canaryWritten false when no primary could be written (the check then compares counts)
 * @param cluster the host runs in cluster mode: a replica serves reads only after {@code READONLY}
 */
public record DataCheck(
        String key, String value, Map<Integer, KeyCount> before, boolean canaryWritten, boolean cluster) {
    /** The canary expires by itself if a run dies before removing it. */
    static final String CANARY_TTL_SECONDS = "3600";

    public DataCheck {
        before = Map.copyOf(before);
    }

    public static String canaryKey(String host) {
        return "fleetfix:canary:" + host;
    }

    /** Writes the canary with {@code writer}, the primary of the data the host holds. */
    static void writeCanary(RedisNode writer, String key, String value) {
        writer.command("SET", key, value, "EX", CANARY_TTL_SECONDS);
    }

    /** Empty when the host holds the canary and no db lost keys that expiry does not explain. */
    public Optional<String> mismatch(RedisNode host) {
        List<String> problems = new ArrayList<>();
        if (canaryWritten) {
            Object seen = read(host, key, cluster);
            if (!value.equals(seen)) {
                problems.add("canary " + key + " " + (seen == null ? "missing" : "reads '" + seen + "'"));
            }
        }
        Map<Integer, KeyCount> after = RedisSnapshot.keyspace(host.info("keyspace"));
        before.forEach((db, count) -> {
            long now = after.getOrDefault(db, new KeyCount(0, 0)).keys();
            if (now < count.keys() - count.expires()) {
                problems.add("db" + db + " had " + count.keys() + " keys (" + count.expires() + " with an expiry)"
                        + " before, " + now + " after");
            }
        });
        return problems.isEmpty() ? Optional.empty() : Optional.of(String.join("; ", problems));
    }

    /** GET on the host itself, a cluster replica included. */
    static Object read(RedisNode host, String key, boolean cluster) {
        if (cluster) {
            host.command("READONLY");
        }
        return host.command("GET", key);
    }

    /** "db0 10001 keys, canary ok". */
    public String describe() {
        long keys = before.values().stream().mapToLong(KeyCount::keys).sum();
        return Counts.of(keys, "key") + " in " + Counts.of(before.size(), "db")
                + (canaryWritten ? " and the canary" : "") + " kept";
    }

    static Duration settle() {
        return Duration.ofSeconds(10);
    }
}
