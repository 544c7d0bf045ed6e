package dev.fleetfix.steps.restart;

import dev.fleetfix.steps.model.Predicted;
import java.util.Map;

/**
 * What a restart that check mode skipped would have done, as the host's predicted state
 * ({@link Predicted}): Redis restarted (or started, when it does not answer now), and by which
 * route.
 */
final class RestartForecast {
    private RestartForecast() {}

    static Map<String, String> predicted(RedisSnapshot snapshot, RestartDecision decision, RestartOptions options) {
        return Map.of(
                Predicted.REDIS,
                snapshot.answered() ? "restarted" : "started",
                Predicted.REDIS_ROUTE,
                route(snapshot, decision, options));
    }

    /** "fail over (FAILOVER TO lab-2 (...)), restart, fail back", "BGSAVE, then restart", "start it". */
    static String route(RedisSnapshot snapshot, RestartDecision decision, RestartOptions options) {
        return switch (decision.kind()) {
            case RESTART -> snapshot.answered() ? "restart in place" : "start it (it does not answer now)";
            case SAVE_THEN_RESTART -> (snapshot.aof() ? "BGREWRITEAOF" : "BGSAVE") + ", then restart in place";
            case FAILOVER_THEN_RESTART -> "fail over ("
                    + decision.handover().orElseThrow().describe() + "), restart as a replica"
                    + (options.failback() ? ", fail back" : ", stays a replica");
            case REFUSE -> "refused";
        };
    }
}
