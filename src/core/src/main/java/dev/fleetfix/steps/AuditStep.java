package dev.fleetfix.steps;

import dev.fleetfix.checks.RunningService;
import dev.fleetfix.playbook.StepDoc;
import dev.fleetfix.playbook.StepSignature;
import dev.fleetfix.steps.facts.DiscoveredService;
import dev.fleetfix.steps.facts.FactGatherer;
import dev.fleetfix.steps.model.StepArgs;
import dev.fleetfix.steps.model.StepResult;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * {@code audit: {}}: gathers the host's facts for later steps and the report, with what runs its Redis ({@code
 * redis.service.*}, {@link DiscoveredService}); never changes anything.
 */
final class AuditStep implements StepType {
    /** The service's one line among the facts ({@link RunningService#facts()}). */
    private static final String FOUND = "redis.service.found";

    private final FactGatherer gatherer;

    AuditStep(FactGatherer gatherer) {
        this.gatherer = gatherer;
    }

    @Override
    public StepSignature signature() {
        return StepSignature.of("audit", Set.of());
    }

    @Override
    public StepDoc doc() {
        return StepDoc.of(
                "Reads the host's facts (THP now and at boot, kernel settings, Redis, its service) for later steps.",
                "- audit: {}");
    }

    @Override
    public StepHandler prepare(StepArgs args) {
        return ctx -> {
            Map<String, String> facts = new LinkedHashMap<>(gatherer.gather(ctx));
            // what runs Redis, for the steps that restart it or order a unit before it, and for the reader: asked
            // here where the facts did not find it in their own trip
            if (!facts.containsKey(FOUND)) {
                facts.putAll(DiscoveredService.of(ctx).facts());
            }
            String summary = "thp enabled=" + facts.getOrDefault("thp.enabled", "?") + " defrag="
                    + facts.getOrDefault("thp.defrag", "?") + ", init=" + facts.getOrDefault("init", "?")
                    + ", os=" + facts.getOrDefault("os.id", "?") + ", redis "
                    + facts.getOrDefault("redis.role", facts.getOrDefault("redis.state", "unreachable"))
                    + "; " + facts.get(FOUND);
            return StepResult.ok(summary).withFacts(facts);
        };
    }
}
