package dev.fleetfix.steps;

import dev.fleetfix.playbook.StepDoc;
import dev.fleetfix.playbook.StepSignature;
import dev.fleetfix.steps.facts.FactCondition;
import dev.fleetfix.steps.model.StepArgs;
import dev.fleetfix.steps.model.StepResult;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * {@code assert: {that: "thp.enabled == never", msg: "..."}}: fails the host when a fact is off.
 * {@code that} is one condition or a list (see {@link FactCondition}). In check mode facts hold
 * what earlier steps would have set, so an assert after {@code thp} passes there too.
 */
final class AssertStep implements StepType {
    @Override
    public StepSignature signature() {
        return StepSignature.of("assert", Set.of("that", "msg"));
    }

    @Override
    public StepDoc doc() {
        return StepDoc.of(
                "Fails the host unless conditions on its facts hold.",
                "- assert: {that: \"thp.enabled == never and init == systemd\", msg: \"THP is still on\"}",
                new StepDoc.Arg(
                        "that",
                        "condition or list of conditions",
                        "none: required",
                        "- assert: {that: [\"net.core.somaxconn >= redis.tcp_backlog\"]}",
                        "FACT == VALUE, !=, and >=, >, <=, < between whole numbers or two facts; joined with and."),
                new StepDoc.Arg(
                        "msg",
                        "text",
                        "empty",
                        "- assert: {that: \"thp.enabled == never\", msg: \"THP is still on\"}",
                        "Said when a condition fails."));
    }

    @Override
    public StepHandler prepare(StepArgs args) {
        List<FactCondition> conditions = new ArrayList<>();
        for (Object item : args.list("that")) {
            try {
                conditions.add(FactCondition.parse(item.toString()));
            } catch (IllegalArgumentException e) {
                throw args.error("that: " + e.getMessage());
            }
        }
        if (conditions.isEmpty()) {
            throw args.error("that: give at least one condition, e.g. that: \"thp.enabled == never\"");
        }
        String msg = args.text("msg", "");
        return ctx -> {
            for (FactCondition condition : conditions) {
                FactCondition.Outcome outcome = condition.evaluate(ctx.state().facts());
                if (!outcome.holds()) {
                    return StepResult.failed(msg.isEmpty() ? outcome.detail() : msg + ": " + outcome.detail());
                }
            }
            return StepResult.ok(conditions.size() == 1 ? conditions.get(0) + " holds" : "all conditions hold");
        };
    }
}
