package dev.fleetfix.bench.verdict;

import dev.fleetfix.bench.BenchResult;
import dev.fleetfix.bench.Metric;
import dev.fleetfix.bench.WindowSample;
import dev.fleetfix.bench.verdict.stats.DifferenceInDifferences;
import dev.fleetfix.bench.verdict.stats.Median;
import dev.fleetfix.bench.verdict.stats.RankTest;
import dev.fleetfix.bench.verdict.stats.RatioInterval;
import dev.fleetfix.bench.verdict.stats.RoundTest;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * One figure of one test measured on both sides: its samples (one per window of every round, or one per round when the
 * engine has no windows), the interval of its ratio and its p-value, or why it cannot decide; not yet judged.
 */
final class FigureSamples {
    /** A percentile needs at least this many requests above it in every window to be decisive. */
    static final int MIN_TAIL_REQUESTS = 10;

    static final String WINDOW = "window";
    static final String ROUND = "round";
    private static final long SEED = 0x5eed_f1ee7L;

    private FigureSamples() {}

    static MetricComparison measure(
            Metric metric,
            List<BenchResult> before,
            List<BenchResult> after,
            List<Double> beforeRounds,
            List<Double> afterRounds,
            double floor,
            Controls controls,
            double level) {
        boolean windows = hasWindows(before)
                && hasWindows(after)
                && (!controls.present() || (hasWindows(controls.before()) && hasWindows(controls.after())));
        List<double[]> bs = windows ? windowValues(metric, before) : perRound(beforeRounds);
        List<double[]> as = windows ? windowValues(metric, after) : perRound(afterRounds);
        double[] bAll = bs.stream().flatMapToDouble(java.util.Arrays::stream).toArray();
        double[] aAll = as.stream().flatMapToDouble(java.util.Arrays::stream).toArray();
        Optional<String> notDecisive = whyNotDecisive(metric, windows, before, after, bAll.length, aAll.length);
        RatioInterval.Result interval;
        double p;
        double drift = 1;
        double designEffect = Double.NaN;
        if (controls.present()) {
            List<double[]> cbs =
                    windows ? windowValues(metric, controls.before()) : perRound(values(metric, controls.before()));
            List<double[]> cas =
                    windows ? windowValues(metric, controls.after()) : perRound(values(metric, controls.after()));
            DifferenceInDifferences.Result did =
                    DifferenceInDifferences.of(bs, as, cbs, cas, level, SEED + metric.ordinal());
            interval = new RatioInterval.Result(did.ratio(), did.low(), did.high());
            drift = did.controlRatio();
            if (notDecisive.isEmpty()
                    && Math.min(controls.before().size(), controls.after().size()) < 2) {
                notDecisive = Optional.of(
                        "one control round on a side: how much the controls' rounds differ is" + " unknown");
            }
            p = notDecisive.isPresent() ? Double.NaN : did.p();
        } else {
            interval = RatioInterval.of(bs, as, level, SEED + metric.ordinal());
            // the larger of two p-values: the rank test over windows sees small changes, the t-test
            // over rounds stays valid when rounds drift more than the windows let the first estimate
            RankTest.Clustered rank = RankTest.clustered(bs, as);
            designEffect = rank.designEffect();
            p = notDecisive.isPresent() ? Double.NaN : Math.max(rank.result().p(), windows ? RoundTest.p(bs, as) : 0);
        }
        return new MetricComparison(
                metric,
                beforeRounds,
                afterRounds,
                Median.of(beforeRounds),
                Median.of(afterRounds),
                spread(beforeRounds),
                spread(afterRounds),
                interval.ratio(),
                Verdict.INCONCLUSIVE,
                windows ? WINDOW : ROUND,
                bAll.length,
                aAll.length,
                interval.low(),
                interval.high(),
                p,
                Double.NaN,
                floor,
                notDecisive,
                // with controls, the before figure the change is over is the host's before times
                // the controls' drift: what the host would show at the after moment unchanged
                Median.of(bAll) * drift,
                Median.of(aAll),
                Median.of(bAll),
                Optional.empty(),
                // replaced by the verdict's own reason once the figures are judged together
                Optional.of(notDecisive.orElse("not yet judged")),
                designEffect);
    }

    private static Optional<String> whyNotDecisive(
            Metric metric, boolean windows, List<BenchResult> before, List<BenchResult> after, int nb, int na) {
        if (metric == Metric.MAX) {
            return Optional.of("the maximum is a single request");
        }
        if (Math.min(nb, na) < RankTest.MIN_PER_SIDE) {
            return Optional.of("only " + nb + " vs " + na + " " + (windows ? WINDOW : ROUND) + "s; "
                    + RankTest.MIN_PER_SIDE + " per side are the least a rank test can judge");
        }
        if (windows && Math.min(before.size(), after.size()) < 2) {
            return Optional.of("one round on a side: how much rounds differ from each other is unknown");
        }
        if (metric == Metric.RPS) {
            return Optional.empty();
        }
        long fewest = Long.MAX_VALUE;
        List<BenchResult> all = new ArrayList<>(before);
        all.addAll(after);
        for (BenchResult r : all) {
            if (windows) {
                for (WindowSample w : r.windows()) {
                    fewest = Math.min(fewest, w.requests());
                }
            } else if (r.requests().isPresent()) {
                fewest = Math.min(fewest, r.requests().getAsLong());
            }
        }
        if (fewest != Long.MAX_VALUE && fewest * metric.tailShare() < MIN_TAIL_REQUESTS) {
            long needed = (long) Math.ceil(MIN_TAIL_REQUESTS / metric.tailShare());
            return Optional.of(String.format(
                    java.util.Locale.ROOT,
                    "a %s holds as few as %,d requests; %s needs %,d to rest on %d requests above it",
                    windows ? WINDOW : ROUND,
                    fewest,
                    metric.label(),
                    needed,
                    MIN_TAIL_REQUESTS));
        }
        return Optional.empty();
    }

    static boolean hasWindows(List<BenchResult> results) {
        return !results.isEmpty() && results.stream().allMatch(r -> r.windows().size() >= 2);
    }

    private static List<double[]> windowValues(Metric metric, List<BenchResult> results) {
        return results.stream()
                .map(r -> r.windows().stream().mapToDouble(metric::valueOf).toArray())
                .toList();
    }

    private static List<double[]> perRound(List<Double> values) {
        return values.stream().map(v -> new double[] {v}).toList();
    }

    static List<Double> values(Metric metric, List<BenchResult> results) {
        List<Double> values = new ArrayList<>();
        for (BenchResult r : results) {
            OptionalDouble v = metric.valueOf(r);
            v.ifPresent(values::add);
        }
        return values;
    }

    static double spread(List<Double> values) {
        return values.stream().mapToDouble(Double::doubleValue).max().orElse(0)
                - values.stream().mapToDouble(Double::doubleValue).min().orElse(0);
    }
}
