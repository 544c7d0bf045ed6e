package dev.fleetfix.steps;

import dev.fleetfix.playbook.StepDoc;
import dev.fleetfix.playbook.StepSignature;
import dev.fleetfix.steps.model.StepArgs;

/**
 * One kind of playbook step ({@code thp}, {@code restart_redis}...): what the parser accepts, and
 * how to turn resolved arguments into a {@link StepHandler}. New step types (the benchmark module's)
 * register through {@link StepRegistry#with(StepType)}.
 */
public interface StepType {
    StepSignature signature();

    /**
     * What {@code fleetfix doc} and the playbook man page say of it: every argument of {@link #signature()}. The
     * built-in types each give theirs (StepDocsTest checks it); a type made for a test may say nothing.
     */
    default StepDoc doc() {
        return StepDoc.of("", "- " + name() + ": {}");
    }

    default String name() {
        return signature().type();
    }

    /**
     * Validates resolved arguments and prepares the step; runs before any host is contacted.
     *
     * @throws dev.fleetfix.InputException naming the step's location for bad arguments
     */
    StepHandler prepare(StepArgs args);
}
