package dev.fleetfix.steps.facts;

import dev.fleetfix.steps.model.StepContext;
import dev.fleetfix.steps.model.StepResult;

/**
 * The fact a step sets when Redis must restart to pick up what it changed ({@code tcp-backlog} is read at
 * listen time): {@code redis.restart_needed} is {@code yes} or {@code no}, and once a step of the run said yes
 * it stays yes. A playbook restarts with {@code when: redis.restart_needed == yes}.
 */
public final class RestartNeed {
    static final String FACT = "redis.restart_needed";
    static final String REASON = "redis.restart_reason";

    private RestartNeed() {}

    /** Records this step's answer without undoing an earlier yes. */
    public static void record(StepContext ctx, StepResult.Builder result, boolean needed, String reason) {
        boolean earlier = ctx.state().fact(FACT).filter("yes"::equals).isPresent();
        if (needed) {
            String before = ctx.state().fact(REASON).filter(r -> earlier).orElse("");
            result.fact(FACT, "yes").fact(REASON, before.isEmpty() ? reason : before + "; " + reason);
        } else if (!earlier) {
            result.fact(FACT, "no");
        }
    }
}
