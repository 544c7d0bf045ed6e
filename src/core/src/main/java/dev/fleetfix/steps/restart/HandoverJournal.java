package dev.fleetfix.steps.restart;

import dev.fleetfix.redis.RedisException;
import dev.fleetfix.redis.RedisNode;
import dev.fleetfix.redis.topology.ReplicaLink;
import dev.fleetfix.steps.model.StepContext;
import dev.fleetfix.steps.restart.handover.Handover;
import java.time.Duration;
import java.util.Optional;

/**
 * A hand-over as the host's record journals it before it is made ({@link PendingRestart#journal}), so that a run
 * that dies after it can fail back or say so.
 */
final class HandoverJournal {
    private static final Duration CONNECT = Duration.ofSeconds(3);

    private HandoverJournal() {}

    /** The record's line for {@code handover}; the lineage is read from this host's Redis now. */
    static PendingRestart.Handover entry(StepContext ctx, Handover handover, boolean failback) {
        String name = handover.newPrimaryName().replaceAll("\\s+", "_");
        if (handover.target().isEmpty()) {
            return new PendingRestart.Handover(
                    handover.route(),
                    "",
                    0,
                    name,
                    failback,
                    Optional.empty(),
                    Optional.of(ctx.host().name()));
        }
        ReplicaLink t = handover.target().get();
        return new PendingRestart.Handover(
                handover.route(),
                t.ip(),
                t.port(),
                name,
                failback,
                lineage(ctx),
                Optional.of(ctx.host().name()));
    }

    /** This host's {@code master_replid} now: the lineage its new primary keeps after a hand-over. */
    private static Optional<String> lineage(StepContext ctx) {
        try (RedisNode node = ctx.redis().open(CONNECT)) {
            return Optional.ofNullable(node.info("replication").get("master_replid"))
                    .map(String::strip);
        } catch (RedisException e) {
            return Optional.empty();
        }
    }
}
