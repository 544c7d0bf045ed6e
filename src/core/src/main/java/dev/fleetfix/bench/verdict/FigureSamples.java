package dev.fleetfix.bench.verdict;

import dev.fleetfix.bench.BenchResult;
import dev.fleetfix.bench.Metric;
import dev.fleetfix.bench.verdict.stats.DifferenceInDifferences;
import dev.fleetfix.bench.verdict.stats.Median;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * One figure of one test measured on both sides: its samples, the interval of its ratio and its p-values, or why it
 * cannot decide; not yet judged. Between two moments the samples are batches of consecutive windows ({@link
 * BatchTest}; one per round when the engine has no windows); with control hosts, windows, judged by difference in
 * differences.
 */
final class FigureSamples {
    /**
     * A percentile needs at least this many requests above it in every sample's requests to be decisive: a batch's
     * windows together (its median of the windows' percentiles then rests on that many requests above it, spread
     * over its windows), a window's with controls.
     */
    static final int MIN_TAIL_REQUESTS = 10;

    /** The fewest samples a side a figure decides on. */
    static final int MIN_SAMPLES = 5;

    static final String WINDOW = "window";
    static final String BATCH = "batch";
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
        int perRound = controls.present() || !windows ? 1 : BatchTest.PER_ROUND;
        // between two moments: batches of consecutive windows (one a round without windows); with controls: windows
        double[] b = controls.present() ? bAll : BatchTest.batches(bs, perRound);
        double[] a = controls.present() ? aAll : BatchTest.batches(as, perRound);
        String unit = !windows ? ROUND : controls.present() ? WINDOW : BATCH;
        Optional<String> notDecisive = whyNotDecisive(metric, unit, before, after, b.length, a.length, perRound);
        double ratio;
        double low;
        double high;
        double p;
        double equivalenceP = Double.NaN;
        double drift = 1;
        double beforeShown;
        double afterShown;
        if (controls.present()) {
            List<double[]> cbs =
                    windows ? windowValues(metric, controls.before()) : perRound(values(metric, controls.before()));
            List<double[]> cas =
                    windows ? windowValues(metric, controls.after()) : perRound(values(metric, controls.after()));
            DifferenceInDifferences.Result did =
                    DifferenceInDifferences.of(bs, as, cbs, cas, level, SEED + metric.ordinal());
            ratio = did.ratio();
            low = did.low();
            high = did.high();
            drift = did.controlRatio();
            if (notDecisive.isEmpty()
                    && Math.min(controls.before().size(), controls.after().size()) < 2) {
                notDecisive = Optional.of(
                        "one control round on a side: how much the controls' rounds differ is" + " unknown");
            }
            p = notDecisive.isPresent() ? Double.NaN : did.p();
            beforeShown = Median.of(bAll);
            afterShown = Median.of(aAll);
        } else {
            BatchTest.Result r = BatchTest.of(b, a, floor, level);
            ratio = r.ratio();
            low = r.low();
            high = r.high();
            p = notDecisive.isPresent() ? Double.NaN : r.p();
            equivalenceP = notDecisive.isPresent() ? Double.NaN : r.equivalenceP();
            beforeShown = Math.exp(Median.of(b));
            afterShown = Math.exp(Median.of(a));
        }
        return new MetricComparison(
                metric,
                beforeRounds,
                afterRounds,
                Median.of(beforeRounds),
                Median.of(afterRounds),
                spread(beforeRounds),
                spread(afterRounds),
                ratio,
                Verdict.INCONCLUSIVE,
                unit,
                b.length,
                a.length,
                low,
                high,
                p,
                Double.NaN,
                floor,
                notDecisive,
                // with controls, the before figure the change is over is the host's before times
                // the controls' drift: what the host would show at the after moment unchanged
                beforeShown * drift,
                afterShown,
                beforeShown,
                Optional.empty(),
                // replaced by the verdict's own reason once the figures are judged together
                Optional.of(notDecisive.orElse("not yet judged")),
                equivalenceP);
    }

    /**
     * Why a figure cannot decide: too few samples (batches, or with controls windows) for a test, one round on a
     * side, or a percentile with fewer than {@link #MIN_TAIL_REQUESTS} requests above it in a sample's requests (a
     * batch's, a window's with controls, a round's without windows).
     */
    private static Optional<String> whyNotDecisive(
            Metric metric,
            String unit,
            List<BenchResult> before,
            List<BenchResult> after,
            int nb,
            int na,
            int perRound) {
        if (metric == Metric.MAX) {
            return Optional.of("the maximum is a single request");
        }
        boolean windows = !ROUND.equals(unit);
        if (windows && Math.min(before.size(), after.size()) < 2) {
            return Optional.of("one round on a side: how much rounds differ from each other is unknown");
        }
        if (Math.min(nb, na) < MIN_SAMPLES) {
            return Optional.of("only " + nb + " vs " + na + " " + (BATCH.equals(unit) ? "batches" : unit + "s") + "; "
                    + MIN_SAMPLES + " per side are the least a rank test can judge");
        }
        if (metric == Metric.RPS) {
            return Optional.empty();
        }
        long fewest = Long.MAX_VALUE;
        List<BenchResult> all = new ArrayList<>(before);
        all.addAll(after);
        for (BenchResult r : all) {
            if (windows) {
                int parts = BATCH.equals(unit) ? perRound : r.windows().size();
                for (int[] b : BatchTest.bounds(r.windows().size(), parts)) {
                    long requests = 0;
                    for (int i = b[0]; i < b[1]; i++) {
                        requests += r.windows().get(i).requests();
                    }
                    fewest = Math.min(fewest, requests);
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
                    unit,
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
