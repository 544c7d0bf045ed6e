package dev.fleetfix.bench.verdict;

import dev.fleetfix.bench.Metric;
import dev.fleetfix.bench.verdict.stats.HostEffects;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One test of one named benchmark across the fleet.
 *
 * @param medianRatio per figure, the median over hosts of each host's after/before ratio
 * @param hosts the per-host comparisons it summarises
 * @param effects per decisive figure, the hosts' ratios taken together (geometric mean, interval,
 *     sign test)
 * @param metricVerdicts per decisive figure, the fleet's verdict
 * @param verdict see {@link FleetVerdict}
 * @param reason how many hosts carry the verdict ("on 2 of 3 hosts, none improved"), and "too few hosts
 *     for a fleet interval" below three hosts, where {@code medianRatio} and {@code effects} are empty
 */
public record FleetComparison(
        String name,
        String test,
        Map<Metric, Double> medianRatio,
        List<TestComparison> hosts,
        Map<Metric, HostEffects> effects,
        Map<Metric, Verdict> metricVerdicts,
        Verdict verdict,
        String reason) {
    public FleetComparison {
        Objects.requireNonNull(verdict, "verdict");
        Objects.requireNonNull(reason, "reason");
        medianRatio = Map.copyOf(medianRatio);
        hosts = List.copyOf(hosts);
        effects = Map.copyOf(effects);
        metricVerdicts = Map.copyOf(metricVerdicts);
    }

    public long count(Verdict v) {
        return hosts.stream().filter(h -> h.verdict() == v).count();
    }
}
