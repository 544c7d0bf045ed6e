package dev.fleetfix.playbook;

import java.util.Optional;
import java.util.Set;

/** The step types a build knows; the parser rejects any other. {@code dev.fleetfix.steps} provides it. */
public interface StepCatalog {
    Optional<StepSignature> signature(String type);

    Set<String> typeNames();
}
