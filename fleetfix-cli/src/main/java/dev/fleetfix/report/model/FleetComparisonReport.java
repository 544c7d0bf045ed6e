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
 * @param verdict {@code improved}, {@code regressed} or {@code within_noise}, from the hosts'
 *     effects (see {@code effects}), never from "any host regressed"
 * @param effects per decisive figure label, the hosts' ratios taken together
 */
public record FleetComparisonReport(
        String name,
        String test,
        Map<String, Double> medianRatio,
        List<String> hosts,
        int improved,
        int regressed,
        int withinNoise,
        String verdict,
        Map<String, FleetEffectReport> effects) {
    public FleetComparisonReport {
        effects = effects == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(effects));
        medianRatio = Collections.unmodifiableMap(new LinkedHashMap<>(medianRatio));
        hosts = List.copyOf(hosts);
    }
}
