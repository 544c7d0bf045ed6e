/**
 * What a step is given and returns: {@code StepArgs} (its resolved arguments), {@code StepContext} (the host, its
 * shell and Redis, and the run's {@code RunPorts}, which the composition root builds once), {@code StepResult},
 * changes and file diffs, and the {@code StepFailure} a step throws when it finds the host in a state it cannot
 * handle.
 */
package dev.fleetfix.steps.model;
