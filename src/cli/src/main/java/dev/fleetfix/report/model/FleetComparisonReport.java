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
 * @param noChangeDetected how many hosts had no change detected
 * @param inconclusive how many hosts were inconclusive
 * @param verdict the hosts' verdicts taken together: {@code regressed} when some regressed and none improved,
 *     {@code improved} likewise, {@code no_change_detected} when every host says so, else {@code inconclusive}
 * @param reason how many hosts carry the verdict ("on 2 of 3 hosts, none improved"), and "too few hosts for
 *     a fleet interval" below 3 hosts
 * @param effects per decisive figure label, the hosts' ratios taken together; empty below 3 hosts, as is
 *     {@code medianRatio}
 */
public record FleetComparisonReport(
        String name,
        String test,
        Map<String, Double> medianRatio,
        List<String> hosts,
        int improved,
        int regressed,
        int noChangeDetected,
        int inconclusive,
        String verdict,
        String reason,
        Map<String, FleetEffectReport> effects) {
    public FleetComparisonReport {
        effects = effects == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(effects));
        medianRatio = Collections.unmodifiableMap(new LinkedHashMap<>(medianRatio));
        hosts = List.copyOf(hosts);
    }
}
