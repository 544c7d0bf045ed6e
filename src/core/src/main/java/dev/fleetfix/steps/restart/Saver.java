package dev.fleetfix.steps.restart;

import dev.fleetfix.health.GateTarget;
import dev.fleetfix.health.Poll;
import dev.fleetfix.redis.RedisException;
import dev.fleetfix.redis.RedisNode;
import dev.fleetfix.redis.RedisServer;
import dev.fleetfix.redis.topology.ReplicaLink;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Puts the data set on disk before a restart: BGSAVE (RDB; SCHEDULE from 6.2) or BGREWRITEAOF (AOF), then waits until
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
        List<String> command;
        try (RedisNode node = redis.open(CONNECT)) {
            countBefore = ReplicaLink.number(node.info("persistence").get(counter), -1);
            lastsaveBefore = ReplicaLink.number(String.valueOf(node.command("LASTSAVE")), -1);
            command = command(node, aof);
        } catch (RedisException e) {
            return Optional.of(e.getMessage());
        }
        if (!aof && countBefore < 0 && lastsaveBefore >= 0) {
            // Before Redis 7.0 only LASTSAVE tells a save ended, in whole seconds: a save that ends in the same
            // second as the one before it (a benchmark's fork, say) would never be seen to. Start in a later second.
            poll.until("the second after the last save", Duration.ofSeconds(3), () -> {
                try (RedisNode node = redis.open(CONNECT)) {
                    long now = serverSeconds(node);
                    return now > lastsaveBefore ? Optional.empty() : Optional.of("server time " + now);
                }
            });
        }
        Optional<String> started;
        try {
            started = poll.until(String.join(" ", command) + " to start", timeout, () -> start(redis, command));
        } catch (Refused e) {
            return Optional.of(e.getMessage());
        }
        if (started.isPresent()) {
            return Optional.of(String.join(" ", command) + " not started: " + started.get());
        }
        return poll.until(aof ? "BGREWRITEAOF to finish" : "BGSAVE to finish", timeout, () -> {
            try (RedisNode node = redis.open(CONNECT)) {
                Map<String, String> p = node.info("persistence");
                return aof ? aofDone(p, countBefore) : rdbDone(node, p, countBefore, lastsaveBefore);
            }
        });
    }

    /**
     * BGSAVE SCHEDULE from 6.2 (it waits for a running AOF rewrite by itself); before, plain BGSAVE,
     * which Redis refuses while another child runs, so {@link #start} sends it again until it is
     * taken. Without INFO server the version is unknown, and plain BGSAVE is what every version has.
     */
    static List<String> command(RedisNode node, boolean aof) {
        if (aof) {
            return List.of("BGREWRITEAOF");
        }
        boolean schedule =
                RedisServer.of(node).map(RedisServer::hasBgsaveSchedule).orElse(false);
        return schedule ? List.of("BGSAVE", "SCHEDULE") : List.of("BGSAVE");
    }

    /** Empty once Redis took the command; "not yet" while another child (save or rewrite) runs. */
    private static Optional<String> start(GateTarget.Connect redis, List<String> command) {
        try (RedisNode node = redis.open(CONNECT)) {
            node.command(command.get(0), command.subList(1, command.size()).toArray(String[]::new));
            return Optional.empty();
        } catch (RedisException e) {
            if (busy(e.getMessage())) {
                return Optional.of(String.join(" ", command) + " refused for now: " + e.detail());
            }
            throw new Refused(String.join(" ", command) + ": " + e.getMessage());
        }
    }

    /**
     * Redis refuses a second child while one runs: "Background save already in progress", "Can't
     * BGSAVE while AOF log rewriting is in progress" (2.8-5.0), "An AOF log rewriting in progress"
     * (6.0), "Background append only file rewriting in progress".
     */
    static boolean busy(String message) {
        String m = message == null ? "" : message.toLowerCase(Locale.ROOT);
        return m.contains("in progress") && (m.contains("rewriting") || m.contains("background save"));
    }

    /** Redis refused the command for good (an unknown command, a wrong argument, a full disk). */
    private static final class Refused extends RuntimeException {
        Refused(String message) {
            super(message);
        }
    }

    /** The server's clock (TIME, Redis 2.6+), in seconds; -1 when it cannot be read. */
    private static long serverSeconds(RedisNode node) {
        Object time = node.command("TIME");
        return time instanceof List<?> parts && !parts.isEmpty()
                ? ReplicaLink.number(String.valueOf(parts.get(0)), -1)
                : -1;
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
