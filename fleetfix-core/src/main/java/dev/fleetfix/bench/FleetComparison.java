package dev.fleetfix.bench;

import dev.fleetfix.bench.stats.HostEffects;
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
 */
public record FleetComparison(
        String name,
        String test,
        Map<Metric, Double> medianRatio,
        List<TestComparison> hosts,
        Map<Metric, HostEffects> effects,
        Map<Metric, Verdict> metricVerdicts,
        Verdict verdict) {
    public FleetComparison {
        Objects.requireNonNull(verdict, "verdict");
        medianRatio = Map.copyOf(medianRatio);
        hosts = List.copyOf(hosts);
        effects = Map.copyOf(effects);
        metricVerdicts = Map.copyOf(metricVerdicts);
    }

    public long count(Verdict v) {
        return hosts.stream().filter(h -> h.verdict() == v).count();
    }
}
