package dev.fleetfix.steps.restart;

import dev.fleetfix.redis.RedisException;
import dev.fleetfix.redis.RedisNode;
import dev.fleetfix.rollout.gate.GateTarget;
import dev.fleetfix.rollout.topology.ReplicaLink;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;

/**
 * Puts the data set on disk before a restart: BGSAVE (RDB) or BGREWRITEAOF (AOF), then waits until
 * it finished and reports OK: {@code rdb_bgsave_in_progress:0}, {@code rdb_last_bgsave_status:ok}
 * and {@code rdb_saves} (or {@code lastsave}) advanced; for AOF the same with {@code aof_*}.
 */
final class Saver {
    private static final Duration CONNECT = Duration.ofSeconds(3);

    private final Poll poll;
    private final Duration timeout;

    Saver(Poll poll, Duration timeout) {
        this.poll = poll;
        this.timeout = timeout;
    }

    /** Empty when the save finished OK. */
    Optional<String> save(GateTarget.Connect redis, boolean aof) throws InterruptedException {
        String counter = aof ? "aof_rewrites" : "rdb_saves";
        long countBefore;
        long lastsaveBefore;
        try (RedisNode node = redis.open(CONNECT)) {
            countBefore = ReplicaLink.number(node.info("persistence").get(counter), -1);
            lastsaveBefore = ReplicaLink.number(String.valueOf(node.command("LASTSAVE")), -1);
            if (aof) {
                node.command("BGREWRITEAOF");
            } else {
                node.command("BGSAVE", "SCHEDULE");
            }
        } catch (RedisException e) {
            return Optional.of(e.getMessage());
        }
        return poll.until(aof ? "BGREWRITEAOF to finish" : "BGSAVE to finish", timeout, () -> {
            try (RedisNode node = redis.open(CONNECT)) {
                Map<String, String> p = node.info("persistence");
                return aof ? aofDone(p, countBefore) : rdbDone(node, p, countBefore, lastsaveBefore);
            }
        });
    }

    private static Optional<String> rdbDone(RedisNode node, Map<String, String> p, long before, long lastsave) {
        String inProgress = p.getOrDefault("rdb_bgsave_in_progress", "?");
        String status = p.getOrDefault("rdb_last_bgsave_status", "?");
        if (!inProgress.equals("0")) {
            return Optional.of("rdb_bgsave_in_progress:" + inProgress);
        }
        if (!status.equals("ok")) {
            return Optional.of("rdb_last_bgsave_status:" + status);
        }
        long saves = ReplicaLink.number(p.get("rdb_saves"), -1);
        boolean advanced = before >= 0
                ? saves > before
                : ReplicaLink.number(String.valueOf(node.command("LASTSAVE")), -1) > lastsave;
        return advanced ? Optional.empty() : Optional.of("BGSAVE not finished yet (rdb_saves:" + saves + ")");
    }

    private static Optional<String> aofDone(Map<String, String> p, long before) {
        String inProgress = p.getOrDefault("aof_rewrite_in_progress", "?");
        String scheduled = p.getOrDefault("aof_rewrite_scheduled", "0");
        String status = p.getOrDefault("aof_last_bgrewrite_status", "?");
        if (!inProgress.equals("0") || !scheduled.equals("0")) {
            return Optional.of("aof_rewrite_in_progress:" + inProgress + " aof_rewrite_scheduled:" + scheduled);
        }
        if (!status.equals("ok")) {
            return Optional.of("aof_last_bgrewrite_status:" + status);
        }
        long rewrites = ReplicaLink.number(p.get("aof_rewrites"), -1);
        return before < 0 || rewrites > before
                ? Optional.empty()
                : Optional.of("BGREWRITEAOF not finished yet (aof_rewrites:" + rewrites + ")");
    }
}
