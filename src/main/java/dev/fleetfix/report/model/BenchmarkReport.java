package dev.fleetfix.report.model;

import java.util.List;

/**
 * Benchmarks of the run.
 *
 * @param runs every round measured, in the order measured
 * @param comparisons per host, benchmark name and test: before against after
 * @param fleet per benchmark name and test, over the hosts that ran both sides
 */
public record BenchmarkReport(
        List<BenchmarkRunReport> runs, List<ComparisonReport> comparisons, List<FleetComparisonReport> fleet) {
    public static final BenchmarkReport NONE = new BenchmarkReport(List.of(), List.of(), List.of());

    public BenchmarkReport {
        runs = List.copyOf(runs);
        comparisons = List.copyOf(comparisons);
        fleet = List.copyOf(fleet);
    }
}
