package dev.fleetfix.report.model;

import java.util.List;

/**
 * One test of one named benchmark on one host, before against after.
 *
 * @param verdict {@code improved} or {@code regressed}: called by the rule (a decisive figure whose Holm-corrected
 *     p-value is below 0.01, whose interval excludes no change and whose change is at least its floor); {@code
 *     no_change_detected}: every decisive figure's interval lies within its floor; {@code inconclusive}: anything
 *     else, with {@code reason}
 * @param design how the comparison was made: before/after, with or without an A/A calibration, and
 *     whether a control host was measured
 * @param calibration when the before side was measured twice, each figure's A/A comparison; its
 *     differences are the noise floor; empty otherwise
 * @param notes what a reader must know to trust the verdict: saturated client rounds, no windows
 * @param reason why the verdict is {@code inconclusive}, short enough for a badge ("not significant after
 *     correction; this machine's CPU was saturated"); null for every other verdict
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
        List<String> notes,
        String reason) {
    public ComparisonReport {
        metrics = List.copyOf(metrics);
        calibration = calibration == null ? List.of() : List.copyOf(calibration);
        notes = notes == null ? List.of() : List.copyOf(notes);
    }
}
