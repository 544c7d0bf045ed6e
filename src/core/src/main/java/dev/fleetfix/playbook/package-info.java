/**
 * Playbooks as records ({@code Playbook}, {@code Play}, {@code Step}), their parser with file:line:col errors,
 * templates, tags, batch sizes, and {@code StepCatalog}: which step names and keys exist, without depending on the
 * steps.
 */
package dev.fleetfix.playbook;
