package dev.fleetfix.steps.facts;

import dev.fleetfix.steps.model.StepContext;
import java.util.Map;

/**
 * Collects a host's facts for the {@code audit} step, as flat keys ({@code thp.enabled},
 * {@code init}, {@code os.id}) that {@code assert} and {@code when} read. The shell
 * implementation is {@link ShellFacts}; the audit service of {@code dev.fleetfix.checks} plugs in
 * here when it is available.
 */
@FunctionalInterface
public interface FactGatherer {
    Map<String, String> gather(StepContext context) throws InterruptedException;
}
