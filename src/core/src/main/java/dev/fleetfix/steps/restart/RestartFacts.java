package dev.fleetfix.steps.restart;

import dev.fleetfix.redis.RedisException;
import dev.fleetfix.redis.RedisNode;
import dev.fleetfix.redis.topology.NodeRole;
import dev.fleetfix.steps.model.StepContext;
import dev.fleetfix.steps.restart.RestartDecision.Kind;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;

/**
 * What later steps and the report learn from a restart: {@code redis.role_before}, {@code redis.role_expected}
 * (what the {@code role_unchanged} gate expects: {@code slave} after a failover without failback), {@code
 * restart.path} and {@code restart.route} ({@code failover}, {@code sentinel}, {@code cluster}, {@code manual} or
 * {@code none}).
 */
final class RestartFacts {
    private static final Duration CONNECT = Duration.ofSeconds(3);

    private RestartFacts() {}

    /** Roles before and expected after, path and route. */
    static Map<String, String> of(RedisSnapshot snapshot, RestartDecision decision, boolean failback) {
        // a Redis known to be down had no role to keep: "none", which role_unchanged tells from not knowing
        String roleBefore = snapshot.down() ? SafeRestart.NO_ROLE : roleWord(snapshot.role());
        boolean failover = decision.kind() == Kind.FAILOVER_THEN_RESTART;
        return Map.of(
                "redis.role_before",
                roleBefore,
                "redis.role_expected",
                failover && !failback ? "slave" : roleBefore,
                "restart.path",
                decision.kind().name().toLowerCase(Locale.ROOT),
                "restart.route",
                decision.handover().map(h -> h.route().word()).orElse("none"));
    }

    /** For a hand-over journalled by a run that died: this host was primary, and is again after a failback. */
    static Map<String, String> resumed(PendingRestart.Handover journalled, boolean failback) {
        return Map.of(
                "redis.role_before",
                "master",
                "redis.role_expected",
                failback ? "master" : "slave",
                "restart.path",
                "resume_handover",
                "restart.route",
                journalled.route().word());
    }

    /** The host's role now, as {@code role_unchanged} must see it after a step that did not restart Redis. */
    static Map<String, String> roles(StepContext ctx) {
        try (RedisNode node = ctx.redis().open(CONNECT)) {
            return roles(RedisSnapshot.roles(ctx.host().name(), node));
        } catch (RedisException e) {
            return Map.of();
        }
    }

    static Map<String, String> roles(RedisSnapshot snapshot) {
        String role = roleWord(snapshot.role());
        return role.equals("unknown") ? Map.of() : Map.of("redis.role_before", role, "redis.role_expected", role);
    }

    static String roleWord(NodeRole role) {
        return switch (role) {
            case PRIMARY -> "master";
            case REPLICA -> "slave";
            case UNKNOWN -> "unknown";
        };
    }
}
