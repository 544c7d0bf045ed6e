package dev.fleetfix.bench.verdict.stats;

import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

/**
 * The change of a host measured against control hosts that were not changed but measured at the
 * same two moments: (after / before of the host) / (after / before of the controls). Whatever
 * drifted between the two moments for everyone (the control node's load, the machine's clock
 * speed) cancels; what is left is the change.
 *
 * <p>The interval resamples the four groups independently in two stages (rounds, then windows), as
 * {@link RatioInterval} does. The p-value is Student's t-test of the contrast of the rounds' log
 * medians, {@code mean(T_after) − mean(T_before) − mean(C_after) + mean(C_before)}, with the
 * variance pooled over the four groups (the round is the unit that is independent).
 */
public final class DifferenceInDifferences {
    private DifferenceInDifferences() {}

    /**
     * @param ratio the host's ratio divided by the controls' ratio (medians of pooled samples)
     * @param controlRatio the controls' own after/before ratio: the drift taken out
     * @param low lower bound of the interval of {@code ratio}
     * @param high upper bound
     * @param p two-sided p-value of the contrast; 1 when there are too few rounds to tell
     */
    public record Result(double ratio, double controlRatio, double low, double high, double p) {}

    /** Each argument holds one array of samples per round. */
    public static Result of(
            List<double[]> before,
            List<double[]> after,
            List<double[]> controlBefore,
            List<double[]> controlAfter,
            double level,
            long seed) {
        if (!(level > 0 && level < 1)) {
            throw new IllegalArgumentException("level must be in (0, 1), was " + level);
        }
        for (List<double[]> side : List.of(before, after, controlBefore, controlAfter)) {
            if (side.isEmpty()) {
                throw new IllegalArgumentException("every side needs at least one round");
            }
        }
        double treated = RatioInterval.ratio(median(after), median(before));
        double control = RatioInterval.ratio(median(controlAfter), median(controlBefore));
        double point = RatioInterval.ratio(treated, control);
        SplittableRandom random = new SplittableRandom(seed);
        double[] ratios = new double[RatioInterval.RESAMPLES];
        for (int i = 0; i < ratios.length; i++) {
            double t = RatioInterval.ratio(
                    Median.of(RatioInterval.resample(after, random)),
                    Median.of(RatioInterval.resample(before, random)));
            double c = RatioInterval.ratio(
                    Median.of(RatioInterval.resample(controlAfter, random)),
                    Median.of(RatioInterval.resample(controlBefore, random)));
            ratios[i] = RatioInterval.ratio(t, c);
        }
        Arrays.sort(ratios);
        double tail = (1 - level) / 2;
        return new Result(
                point,
                control,
                RatioInterval.quantile(ratios, tail),
                RatioInterval.quantile(ratios, 1 - tail),
                p(before, after, controlBefore, controlAfter));
    }

    /** The t-test of the contrast of log round medians; 1 without a degree of freedom. */
    static double p(List<double[]> tb, List<double[]> ta, List<double[]> cb, List<double[]> ca) {
        double[][] groups = {
            RoundTest.logMedians(tb), RoundTest.logMedians(ta), RoundTest.logMedians(cb), RoundTest.logMedians(ca)
        };
        int n = 0;
        for (double[] g : groups) {
            if (g == null) {
                return 1;
            }
            n += g.length;
        }
        int df = n - groups.length;
        if (df < 1) {
            return 1;
        }
        double ss = 0;
        double inverse = 0;
        double[] means = new double[groups.length];
        for (int i = 0; i < groups.length; i++) {
            means[i] = Arrays.stream(groups[i]).average().orElse(0);
            for (double x : groups[i]) {
                ss += (x - means[i]) * (x - means[i]);
            }
            inverse += 1.0 / groups[i].length;
        }
        double contrast = means[1] - means[0] - means[3] + means[2];
        double se = Math.sqrt(ss / df * inverse);
        if (!(se > 0)) {
            return Math.abs(contrast) < 1e-12 ? 1 : 0;
        }
        return RoundTest.twoSidedT(contrast / se, df);
    }

    private static double median(List<double[]> rounds) {
        return Median.of(RatioInterval.pool(rounds));
    }
}
