package dev.fleetfix.steps;

import dev.fleetfix.playbook.StepSignature;
import java.util.Set;

/**
 * A step type whose module is not part of this build: the parser knows the name (so a playbook
 * that uses it gets a clear message, not "unknown step type"), and preparing it fails before any
 * host is touched. The real type replaces it through {@link StepRegistry#with(StepType)}.
 */
final class UnavailableStep implements StepType {
    private final String type;

    UnavailableStep(String type) {
        this.type = type;
    }

    @Override
    public StepSignature signature() {
        return StepSignature.of(type, Set.of(StepSignature.ANY_ARG));
    }

    @Override
    public StepHandler prepare(StepArgs args) {
        throw args.error(type + " step: not available in this build");
    }
}
