package dev.fleetfix.steps;

import dev.fleetfix.steps.model.StepArgs;
import dev.fleetfix.steps.model.StepContext;
import dev.fleetfix.steps.model.StepResult;

/**
 * A prepared step: its arguments resolved and validated for one host, ready to run. Made by
 * {@link StepType#prepare(StepArgs)} before any host is contacted.
 *
 * <p>Transport and Redis exceptions escape (the engine retries transient ones); a step that runs
 * and finds the host wrong returns a FAILED result.
 */
@FunctionalInterface
public interface StepHandler {
    StepResult run(StepContext context) throws InterruptedException;
}
