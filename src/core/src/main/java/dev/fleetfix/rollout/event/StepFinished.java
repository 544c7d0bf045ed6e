package dev.fleetfix.rollout.event;

import dev.fleetfix.steps.model.StepResult;
import java.time.Duration;
import java.time.Instant;

/**
 * A step ended on a host: status, changes (before → after), file diffs, gate results, facts.
 *
 * @param attempts how many times it ran (more than one after transient errors)
 */
public record StepFinished(
        Instant at,
        String play,
        String host,
        int index,
        String step,
        String type,
        StepResult result,
        Duration elapsed,
        int attempts)
        implements RunEvent {}
