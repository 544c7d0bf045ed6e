package dev.fleetfix.steps.restart;

import dev.fleetfix.redis.CommandRights;
import dev.fleetfix.redis.NeededCommands;
import dev.fleetfix.redis.RedisNode;
import dev.fleetfix.steps.restart.RestartDecision.Kind;
import dev.fleetfix.steps.restart.handover.Handover;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The commands a decided restart will send to the host's Redis, and whether its user may run them, asked before
 * the first of them ({@code ACL DRYRUN}, Redis 7.0+; before 7.0 nothing can be asked and the step finds out when it
 * sends them). A restart whose route needs a command renamed away or outside the user's ACL is refused before the
 * canary, the save or the hand-over: found in the middle, it would leave the host half-done.
 */
final class RouteRights {
    private RouteRights() {}

    /**
     * The labels ({@link NeededCommands}) of what the route sends to this host's Redis: the data check's canary, the
     * save, and what the hand-over sends the primary ({@link Handover#primaryCommands()}).
     */
    static List<String> needed(RedisSnapshot snapshot, RestartDecision decision, RestartOptions options) {
        List<String> labels = new ArrayList<>();
        if (options.dataCheck() && snapshot.answered()) {
            labels.addAll(List.of("set", "get", "del"));
        }
        if (decision.kind() == Kind.SAVE_THEN_RESTART) {
            labels.add(snapshot.aof() ? "bgrewriteaof" : "bgsave");
            labels.add("lastsave");
        }
        if (decision.kind() == Kind.FAILOVER_THEN_RESTART) {
            labels.addAll(decision.handover().orElseThrow().primaryCommands());
        }
        return labels;
    }

    /** What of {@code labels} Redis would refuse {@code user}, in one line; empty when nothing, or when it cannot tell. */
    static Optional<String> refused(RedisNode node, String user, String version, List<String> labels) {
        if (labels.isEmpty() || !CommandRights.canAsk(version)) {
            return Optional.empty();
        }
        List<String> refused = new ArrayList<>();
        for (String label : labels) {
            switch (CommandRights.dryrun(node, user, NeededCommands.example(label))) {
                case NOT_PERMITTED -> refused.add(label + " (NOPERM for user " + user + ")");
                case UNKNOWN_COMMAND -> refused.add(label + " (renamed away)");
                case DRYRUN_REFUSED -> {
                    return Optional.empty();
                }
                case ALLOWED, CANNOT_TELL -> {}
            }
        }
        if (refused.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of("Redis refuses commands this restart needs: " + String.join(", ", refused)
                + ": grant them to redis_user (the ACL for restart_redis in docs/inventory.md, \"The minimal Redis"
                + " ACL\") or undo their rename-command");
    }
}
