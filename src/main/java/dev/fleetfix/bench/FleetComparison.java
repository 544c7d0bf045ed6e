package dev.fleetfix.bench;

import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One test of one named benchmark across the fleet.
 *
 * @param medianRatio per figure, the median over hosts of each host's after/before ratio
 * @param hosts the per-host comparisons it summarises
 * @param verdict REGRESSED when any host regressed, IMPROVED when at least half the hosts improved,
 *     otherwise WITHIN_NOISE
 */
public record FleetComparison(
        String name, String test, Map<Metric, Double> medianRatio, List<TestComparison> hosts, Verdict verdict) {
    public FleetComparison {
        Objects.requireNonNull(verdict, "verdict");
        medianRatio = Map.copyOf(medianRatio);
        hosts = List.copyOf(hosts);
    }

    public long count(Verdict v) {
        return hosts.stream().filter(h -> h.verdict() == v).count();
    }
}
