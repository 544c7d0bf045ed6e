package dev.fleetfix.report.model;

import java.util.List;

/**
 * Benchmarks of the run.
 *
 * @param runs every round measured, in the order measured
 * @param comparisons per host, benchmark name and test: before against after
 * @param fleet per benchmark name and test, over the hosts that ran both sides
 * @param sweep per host, sweep name, test and point: the medians of its rounds (value size and
 *     TCP_NODELAY sweeps); empty without a sweep
 * @param sweepComparisons each sweep point against its neighbour; empty without a sweep
 */
public record BenchmarkReport(
        List<BenchmarkRunReport> runs,
        List<ComparisonReport> comparisons,
        List<FleetComparisonReport> fleet,
        List<SweepRowReport> sweep,
        List<SweepComparisonReport> sweepComparisons) {
    public static final BenchmarkReport NONE = new BenchmarkReport(List.of(), List.of(), List.of());

    public BenchmarkReport(
            List<BenchmarkRunReport> runs, List<ComparisonReport> comparisons, List<FleetComparisonReport> fleet) {
        this(runs, comparisons, fleet, List.of(), List.of());
    }

    public BenchmarkReport {
        runs = List.copyOf(runs);
        comparisons = List.copyOf(comparisons);
        fleet = List.copyOf(fleet);
        // reports written before sweeps existed have neither field
        sweep = sweep == null ? List.of() : List.copyOf(sweep);
        sweepComparisons = sweepComparisons == null ? List.of() : List.copyOf(sweepComparisons);
    }
}
