package dev.fleetfix.bench;

import java.util.List;
import java.util.Objects;

/**
 * One test (SET, fork-under-load...) of one named benchmark on one host, before against after.
 *
 * @param design how the comparison was made, for the report ("before/after, no control host")
 * @param calibration when the before side was measured twice, each figure's A/A comparison (the
 *     noise floor); empty otherwise
 * @param notes what a reader must know to trust the verdict (saturated client rounds, missing
 *     windows, no control host)
 */
public record TestComparison(
        String host,
        String name,
        String test,
        int beforeRounds,
        int afterRounds,
        List<MetricComparison> metrics,
        Verdict verdict,
        String design,
        List<MetricComparison> calibration,
        List<String> notes) {
    public TestComparison {
        Objects.requireNonNull(host, "host");
        Objects.requireNonNull(verdict, "verdict");
        Objects.requireNonNull(design, "design");
        metrics = List.copyOf(metrics);
        calibration = List.copyOf(calibration);
        notes = List.copyOf(notes);
    }
}
