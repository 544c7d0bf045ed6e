package dev.fleetfix.report.model;

import java.util.List;

/**
 * One figure before and after.
 *
 * @param metric {@code rps}, {@code p50}, {@code p90}, {@code p99}, {@code p99.9}, {@code p99.99}
 *     or {@code max}
 * @param before the figure of each before round (over the whole round)
 * @param after the figure of each after round
 * @param beforeMedian median of {@code before}
 * @param afterMedian median of {@code after}
 * @param beforeSpread max - min of {@code before}
 * @param afterSpread max - min of {@code after}
 * @param ratio after / before: the Hodges–Lehmann shift of the batches (the median of every after-minus-before
 *     difference of their logs), or with controls the ratio of the sample medians over the controls' own; null when
 *     unknown
 * @param verdict {@code improved}, {@code regressed}, {@code no_change_detected} ({@code equivalence_p} below 0.05;
 *     with controls, the interval lies within the floor) or {@code inconclusive} (with {@code reason}); always {@code inconclusive} when not decisive
 * @param sampleUnit what one sample of the test is: {@code batch} (half a round's windows, each window about a
 *     tenth of a round, at most 1 s; the median of their logs) between two moments, {@code window} with control
 *     hosts, {@code round} when the engine reports no windows; files written before batches say {@code window}
 *     for sides at two moments too (their {@code p} is then of any change, by the older rank test over windows)
 * @param beforeSamples samples on the before side
 * @param afterSamples samples on the after side
 * @param low lower bound of the 95 % interval of {@code ratio} (the exact rank interval of the batches' shift; with
 *     control hosts a bootstrap interval); null when unknown
 * @param high upper bound of that interval; null when unknown
 * @param p two-sided p-value of a change beyond {@code floor} (the exact rank test of the batches; with control
 *     hosts of any change, difference in differences); null when not decisive
 * @param adjustedP {@code p} after Holm's correction over the decisive figures; null when not
 *     decisive
 * @param equivalenceP p of the two one-sided tests that the change lies within {@code floor}: below 0.05 for every
 *     decisive figure, the test reads no change detected; null with control hosts, when not decisive, and in files
 *     written before this field existed
 * @param floor the smallest relative change taken as real: 0.30 (0.60 from p99 up) for sides at two moments
 *     without control hosts, 0.05 with controls or in a sweep; a calibration's A/A difference when that is larger
 * @param decisive whether this figure can decide the verdict
 * @param notDecisive why not; null when decisive
 * @param beforeSampleMedian median of the before samples (batches, windows or rounds, see {@code sample_unit}): the
 *     figure to show beside the change (the rounds' medians can differ from it by more than the change); {@code
 *     ratio}, a Hodges–Lehmann shift, can differ from {@code after_sample_median / before_sample_median} by a point
 *     or two. Null in files written before this field existed
 * @param afterSampleMedian median of the after samples; null likewise
 * @param withheld why a change that passed the test is not called (this machine's own load drifted
 *     between the sides in the direction that would cause it); null when nothing was withheld, and
 *     in files written before this field existed
 * @param reason why the verdict is {@code inconclusive}, with its figures ("not significant after correction (p
 *     0.029 after Holm over 5 figures, level 0.01)"); null for every other verdict
 */
public record MetricReport(
        String metric,
        List<Double> before,
        List<Double> after,
        double beforeMedian,
        double afterMedian,
        double beforeSpread,
        double afterSpread,
        Double ratio,
        String verdict,
        String sampleUnit,
        int beforeSamples,
        int afterSamples,
        Double low,
        Double high,
        Double p,
        Double adjustedP,
        Double equivalenceP,
        Double floor,
        boolean decisive,
        String notDecisive,
        Double beforeSampleMedian,
        Double afterSampleMedian,
        String withheld,
        String reason) {
    public MetricReport {
        before = List.copyOf(before);
        after = List.copyOf(after);
    }
}
