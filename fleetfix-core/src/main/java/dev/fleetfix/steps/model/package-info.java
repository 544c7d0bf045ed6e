/**
 * What a step is given and returns: {@code StepContext} (the ports, the host, the clock), {@code StepResult},
 * changes and file diffs.
 */
package dev.fleetfix.steps.model;
