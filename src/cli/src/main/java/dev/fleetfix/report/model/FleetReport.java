package dev.fleetfix.report.model;

import java.util.List;
import java.util.Objects;

/**
 * The whole report of one run: {@code report.json}'s root object.
 *
 * @param schemaVersion {@code schema_version}: {@value #SCHEMA_VERSION} for this layout, the same number in every JSON
 *     document fleetfix prints (docs/json.md); a file of version 1 (verdict {@code within_noise}, fleet count {@code
 *     within_noise}) or 2 (a host's key {@code name}) is still read, its words as written
 * @param run the run: id, playbook, times, outcome
 * @param plays the plays in order, with their batches and how they ended
 * @param hosts every host of the run, in inventory order, with its steps, facts and outcome
 * @param benchmarks benchmark rounds and before/after comparisons
 */
public record FleetReport(
        int schemaVersion, RunInfo run, List<PlayReport> plays, List<HostReport> hosts, BenchmarkReport benchmarks) {
    public static final int SCHEMA_VERSION = 3;

    public FleetReport {
        if (schemaVersion < 1 || schemaVersion > SCHEMA_VERSION) {
            throw new IllegalArgumentException(
                    "schema_version must be 1 to " + SCHEMA_VERSION + ", was " + schemaVersion);
        }
        Objects.requireNonNull(run, "run");
        plays = List.copyOf(plays);
        hosts = List.copyOf(hosts);
        Objects.requireNonNull(benchmarks, "benchmarks");
    }
}
