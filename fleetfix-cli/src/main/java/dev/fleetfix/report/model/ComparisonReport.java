package dev.fleetfix.report.model;

import java.util.List;

/**
 * One test of one named benchmark on one host, before against after.
 *
 * @param verdict {@code improved}, {@code regressed} or {@code within_noise}: a change needs a
 *     decisive figure whose Holm-corrected p-value is below 0.01, whose interval excludes no change
 *     and whose change is at least its floor
 * @param design how the comparison was made: before/after, with or without an A/A calibration, and
 *     whether a control host was measured
 * @param calibration when the before side was measured twice, each figure's A/A comparison; its
 *     differences are the noise floor; empty otherwise
 * @param notes what a reader must know to trust the verdict: saturated client rounds, no windows
 */
public record ComparisonReport(
        String host,
        String name,
        String test,
        int beforeRounds,
        int afterRounds,
        List<MetricReport> metrics,
        String verdict,
        String design,
        List<MetricReport> calibration,
        List<String> notes) {
    public ComparisonReport {
        metrics = List.copyOf(metrics);
        calibration = calibration == null ? List.of() : List.copyOf(calibration);
        notes = notes == null ? List.of() : List.copyOf(notes);
    }
}
