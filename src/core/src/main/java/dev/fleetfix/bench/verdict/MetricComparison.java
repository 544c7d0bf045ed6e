package dev.fleetfix.bench.verdict;

import dev.fleetfix.bench.Metric;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * One figure before and after.
 *
 * <p>The verdict rests on samples: between two moments, batches of consecutive windows (two a round) summarised by
 * the mean of their windows ({@link BatchTest}), or one per round when the engine has no windows; with
 * control hosts, windows. A figure is {@link #decisive()} when its samples can carry a verdict (enough of them, and
 * enough requests above the percentile in each); the others are shown with {@code notDecisive} saying why, and their
 * verdict is always inconclusive, with that reason.
 *
 * @param before the figure of each before round (over the whole round)
 * @param after the figure of each after round
 * @param ratio after / before: between two moments the Hodges–Lehmann shift of the batches (the median of every
 *     after-minus-before difference of their logs), which can differ by a point or two from the ratio of the two
 *     sample medians shown; with controls the controls' change taken out (below 1 is better for latencies, above 1
 *     for rps)
 * @param beforeSpread max - min of the before rounds
 * @param afterSpread max - min of the after rounds
 * @param sampleUnit {@code batch}, {@code window} (with controls) or {@code round}: what one sample is
 * @param beforeSamples samples on the before side
 * @param afterSamples samples on the after side
 * @param low lower bound of the interval of {@code ratio}: the exact rank interval of the batches' shift, or with
 *     controls the bootstrap interval
 * @param high upper bound of that interval
 * @param p two-sided p-value of a change beyond the floor (the exact rank test of the batches), or with controls of
 *     any change (difference in differences); NaN when not decisive
 * @param adjustedP {@code p} after Holm's correction over the decisive figures of the test
 * @param floor the smallest relative change taken as real (the effect floor, or the calibrated
 *     A/A difference when larger)
 * @param notDecisive why this figure cannot decide the verdict; empty when it can
 * @param beforeSampleMedian median of the before samples (of batches, the exponential of their logs' median): the
 *     figure to show beside the change (the rounds' median {@code beforeMedian} can differ from it by more than the
 *     change)
 * @param afterSampleMedian median of the after samples
 * @param uncorrectedBeforeMedian median of the before samples as measured; equal to {@code
 *     beforeSampleMedian} unless control hosts' drift corrected it (difference in differences)
 * @param withheld why a change that passed the test is not called: this machine's own load drifted
 *     between the sides in the direction that would cause it ({@link MachineDrift}); empty otherwise
 * @param reason why the verdict is {@link Verdict#INCONCLUSIVE}, in words a reader acts on ("not significant after
 *     correction (p 0.029 after Holm)"); empty for every other verdict
 * @param equivalenceP the p of the two one-sided tests that the change lies within the floor ({@link BatchTest}):
 *     below {@link Thresholds#EQUIVALENCE_ALPHA}, no change detected; NaN with controls (where the interval lying
 *     within the floor says it) and when not decisive
 */
public record MetricComparison(
        Metric metric,
        List<Double> before,
        List<Double> after,
        double beforeMedian,
        double afterMedian,
        double beforeSpread,
        double afterSpread,
        double ratio,
        Verdict verdict,
        String sampleUnit,
        int beforeSamples,
        int afterSamples,
        double low,
        double high,
        double p,
        double adjustedP,
        double floor,
        Optional<String> notDecisive,
        double beforeSampleMedian,
        double afterSampleMedian,
        double uncorrectedBeforeMedian,
        Optional<String> withheld,
        Optional<String> reason,
        double equivalenceP) {
    public MetricComparison {
        Objects.requireNonNull(metric, "metric");
        Objects.requireNonNull(verdict, "verdict");
        Objects.requireNonNull(sampleUnit, "sampleUnit");
        Objects.requireNonNull(notDecisive, "notDecisive");
        Objects.requireNonNull(withheld, "withheld");
        Objects.requireNonNull(reason, "reason");
        if ((verdict == Verdict.INCONCLUSIVE) != reason.isPresent()) {
            throw new IllegalArgumentException(
                    "an inconclusive verdict, and only that, has a reason: " + verdict + " " + reason);
        }
        before = List.copyOf(before);
        after = List.copyOf(after);
    }

    public boolean decisive() {
        return notDecisive.isEmpty();
    }

    /** This figure kept out of any verdict, saying why. */
    MetricComparison notDecisiveBecause(String why) {
        return with(Verdict.INCONCLUSIVE, adjustedP, Optional.of(why), Optional.empty(), Optional.of(why));
    }

    MetricComparison withAdjusted(double holm, Verdict v, Optional<String> why, Optional<String> reason) {
        return with(v, holm, notDecisive, why, reason);
    }

    /** The same figure, inconclusive for {@code why}. */
    MetricComparison inconclusiveBecause(String why) {
        return with(Verdict.INCONCLUSIVE, adjustedP, notDecisive, withheld, Optional.of(why));
    }

    private MetricComparison with(
            Verdict v,
            double adjusted,
            Optional<String> notDecisiveWhy,
            Optional<String> withheldWhy,
            Optional<String> reasonWhy) {
        return new MetricComparison(
                metric,
                before,
                after,
                beforeMedian,
                afterMedian,
                beforeSpread,
                afterSpread,
                ratio,
                v,
                sampleUnit,
                beforeSamples,
                afterSamples,
                low,
                high,
                p,
                adjusted,
                floor,
                notDecisiveWhy,
                beforeSampleMedian,
                afterSampleMedian,
                uncorrectedBeforeMedian,
                withheldWhy,
                reasonWhy,
                equivalenceP);
    }
}
