package dev.fleetfix.bench.verdict;

import dev.fleetfix.bench.Metric;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * One figure before and after.
 *
 * <p>The verdict rests on samples: one value per window of every round when the engine cuts its
 * load into windows, else one per round. A figure is {@link #decisive()} when its samples can carry
 * a verdict (enough of them, and enough requests above the percentile in each); the others are
 * shown with {@code notDecisive} saying why, and their verdict is always inconclusive, with that reason.
 *
 * @param before the figure of each before round (over the whole round)
 * @param after the figure of each after round
 * @param ratio median of the after samples / median of the before samples (below 1 is better for
 *     latencies, above 1 for rps)
 * @param beforeSpread max - min of the before rounds
 * @param afterSpread max - min of the after rounds
 * @param sampleUnit {@code window} or {@code round}: what one sample is
 * @param beforeSamples samples on the before side
 * @param afterSamples samples on the after side
 * @param low lower bound of the bootstrap interval of {@code ratio}
 * @param high upper bound of the bootstrap interval of {@code ratio}
 * @param p two-sided p-value of the rank test; NaN when not decisive
 * @param adjustedP {@code p} after Holm's correction over the decisive figures of the test
 * @param floor the smallest relative change taken as real (the effect floor, or the calibrated
 *     A/A difference when larger)
 * @param notDecisive why this figure cannot decide the verdict; empty when it can
 * @param beforeSampleMedian median of the before samples: the denominator of {@code ratio}, so the
 *     figure to show beside the change (the rounds' median {@code beforeMedian} can differ from it
 *     by more than the change)
 * @param afterSampleMedian median of the after samples: the numerator of {@code ratio}
 * @param uncorrectedBeforeMedian median of the before samples as measured; equal to {@code
 *     beforeSampleMedian} unless control hosts' drift corrected it (difference in differences)
 * @param withheld why a change that passed the test is not called: this machine's own load drifted
 *     between the sides in the direction that would cause it ({@link MachineDrift}); empty otherwise
 * @param reason why the verdict is {@link Verdict#INCONCLUSIVE}, in words a reader acts on ("not significant after
 *     correction (p 0.029 after Holm)"); empty for every other verdict
 * @param designEffect how much windows clustered in rounds widened the rank test ({@link
 *     dev.fleetfix.bench.verdict.stats.RankTest#clustered}); NaN where no such test was made
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
        double designEffect) {
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
                designEffect);
    }
}
