/**
 * A host's facts for the steps: gathered by the shell or the audit service ({@code FactGatherer}), read by {@code
 * assert} and {@code when} ({@code FactCondition}), the service that runs Redis ({@code DiscoveredService}), and the
 * {@code redis.restart_needed} fact steps set ({@code RestartNeed}).
 */
package dev.fleetfix.steps.facts;
