package dev.fleetfix.steps.restart;

import dev.fleetfix.health.Poll;
import dev.fleetfix.redis.RedisException;
import dev.fleetfix.redis.RedisNode;
import dev.fleetfix.redis.topology.NodeRole;
import dev.fleetfix.steps.model.StepContext;
import dev.fleetfix.steps.restart.handover.ClusterKeys;
import java.time.Duration;
import java.util.Optional;

/**
 * The data check's canary key ({@link DataCheck}): written on the primary of the data the host holds, seen on the
 * host before the restart, removed after it, and removed when a run that died left it.
 */
final class Canary {
    private static final Duration CONNECT = Duration.ofSeconds(3);

    private Canary() {}

    /** Writes the canary on the data's primary and waits until the host holds it, then counts keys. */
    static DataCheck prepare(StepContext ctx, RedisSnapshot s, Poll poll, RestartReport report)
            throws InterruptedException {
        String key = DataCheck.canaryKey(ctx.host().name());
        String value = ctx.run().stamp() + ":" + Long.toHexString(Double.doubleToLongBits(Math.random()));
        boolean written = false;
        try (RedisNode writer = writer(ctx, s).orElse(null)) {
            if (writer != null) {
                Optional<String> served = ClusterKeys.servedBy(writer, key);
                if (served.isPresent()) {
                    key = served.get();
                    DataCheck.writeCanary(writer, key, value);
                    written = true;
                } else {
                    report.note("canary not written (" + writer.hostName() + " serves no cluster slot)");
                }
            }
        } catch (RedisException e) {
            report.note("canary not written (" + e.getMessage() + ")");
        }
        String canary = key;
        if (written) {
            Optional<String> seen = poll.until("the canary key to replicate", DataCheck.settle(), () -> {
                try (RedisNode node = ctx.redis().open(CONNECT)) {
                    return value.equals(DataCheck.read(node, canary, s.cluster()))
                            ? Optional.empty()
                            : Optional.of("canary not replicated yet");
                }
            });
            if (seen.isPresent()) {
                report.note("canary not seen on the host before the restart: " + seen.get());
                written = false;
            }
        }
        try (RedisNode node = ctx.redis().open(CONNECT)) {
            return new DataCheck(canary, value, RedisSnapshot.keyspace(node.info("keyspace")), written, s.cluster());
        }
    }

    /** Removes the canary from the data's primary now; it expires by itself within the hour when that fails. */
    static void remove(StepContext ctx, DataCheck check) {
        try (RedisNode node = ctx.redis().open(CONNECT)) {
            RedisSnapshot now = RedisSnapshot.roles(ctx.host().name(), node);
            try (RedisNode writer = writer(ctx, now).orElse(null)) {
                if (writer != null) {
                    writer.command("DEL", check.key());
                }
            }
        } catch (RedisException e) {
            // The canary expires by itself within the hour.
        }
    }

    /** See {@link SafeRestart#removeLeftCanary}. */
    static Optional<String> removeLeft(StepContext ctx) {
        String key = DataCheck.canaryKey(ctx.host().name());
        try (RedisNode node = ctx.redis().open(CONNECT)) {
            RedisSnapshot now = RedisSnapshot.roles(ctx.host().name(), node);
            try (RedisNode writer = writer(ctx, now).orElse(null)) {
                if (writer == null) {
                    return Optional.empty();
                }
                if (ctx.check()) {
                    // GET, not EXISTS: the documented ACL grants the restart +get
                    return writer.command("GET", key) != null
                            ? Optional.of("would remove " + key + ", left on " + writer.hostName()
                                    + " by a run that did not end")
                            : Optional.empty();
                }
                return "1".equals(String.valueOf(writer.command("DEL", key)))
                        ? Optional.of(
                                "removed " + key + ", left on " + writer.hostName() + " by a run that did not end")
                        : Optional.empty();
            }
        } catch (RedisException e) {
            // Redis does not answer: the restart's own checks say so; a canary expires within its hour
            return Optional.empty();
        }
    }

    /** The primary whose data the host holds: itself, or its primary when in the inventory. */
    private static Optional<RedisNode> writer(StepContext ctx, RedisSnapshot s) {
        if (s.role() == NodeRole.PRIMARY) {
            return Optional.of(ctx.redis().open(CONNECT));
        }
        if (s.masterHost().isPresent()) {
            return ctx.peers().primaries().open(s.masterHost().get(), s.masterPort(), CONNECT);
        }
        return Optional.empty();
    }
}
