/**
 * What a step is given and returns: {@code StepContext} (the host, its shell and Redis, and the run's {@code
 * RunPorts}, which the composition root builds once), {@code StepResult}, changes and file diffs.
 */
package dev.fleetfix.steps.model;
