package dev.fleetfix.report.model;

import java.util.List;
import java.util.Objects;

/**
 * The whole report of one run: {@code report.json}'s root object.
 *
 * @param schemaVersion {@code schema_version}: {@value #SCHEMA_VERSION} for this layout; a file of version 1 (verdict
 *     {@code within_noise}, fleet count {@code within_noise}) is still read, its words as written
 * @param run the run: id, playbook, times, outcome
 * @param plays the plays in order, with their batches and how they ended
 * @param hosts every host of the run, in inventory order, with its steps, facts and outcome
 * @param benchmarks benchmark rounds and before/after comparisons
 */
public record FleetReport(
        int schemaVersion, RunInfo run, List<PlayReport> plays, List<HostReport> hosts, BenchmarkReport benchmarks) {
    public static final int SCHEMA_VERSION = 2;

    public FleetReport {
        if (schemaVersion != SCHEMA_VERSION && schemaVersion != 1) {
            throw new IllegalArgumentException("schema_version must be " + SCHEMA_VERSION + ", was " + schemaVersion);
        }
        Objects.requireNonNull(run, "run");
        plays = List.copyOf(plays);
        hosts = List.copyOf(hosts);
        Objects.requireNonNull(benchmarks, "benchmarks");
    }
}
