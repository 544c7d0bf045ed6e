package dev.fleetfix.bench.verdict;

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
 * @param reason why the verdict is {@link Verdict#INCONCLUSIVE}, short enough for a badge ("not significant
 *     after correction; this machine's CPU was saturated"); empty for every other verdict
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
        List<String> notes,
        java.util.Optional<String> reason) {
    public TestComparison {
        Objects.requireNonNull(host, "host");
        Objects.requireNonNull(verdict, "verdict");
        Objects.requireNonNull(design, "design");
        metrics = List.copyOf(metrics);
        calibration = List.copyOf(calibration);
        notes = List.copyOf(notes);
        Objects.requireNonNull(reason, "reason");
        if ((verdict == Verdict.INCONCLUSIVE) != reason.isPresent()) {
            throw new IllegalArgumentException(
                    "an inconclusive verdict, and only that, has a reason: " + verdict + " " + reason);
        }
    }
}
