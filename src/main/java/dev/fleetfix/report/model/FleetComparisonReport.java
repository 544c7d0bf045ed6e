package dev.fleetfix.report.model;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One test of one named benchmark across the fleet.
 *
 * @param medianRatio per metric label, the median over hosts of each host's after/before ratio
 * @param hosts the hosts compared
 * @param improved how many hosts improved
 * @param regressed how many hosts regressed
 * @param withinNoise how many hosts stayed within noise
 * @param verdict {@code improved}, {@code regressed} or {@code within_noise}
 */
public record FleetComparisonReport(
        String name,
        String test,
        Map<String, Double> medianRatio,
        List<String> hosts,
        int improved,
        int regressed,
        int withinNoise,
        String verdict) {
    public FleetComparisonReport {
        medianRatio = Collections.unmodifiableMap(new LinkedHashMap<>(medianRatio));
        hosts = List.copyOf(hosts);
    }
}
