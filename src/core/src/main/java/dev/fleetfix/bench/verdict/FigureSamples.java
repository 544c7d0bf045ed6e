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
     * windows together (the mean of its windows' percentiles then rests on that many requests above it, spread
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

    /**
     * One figure of one test on both sides: the rounds' results and the figure's value in each round, in the order
     * the rounds ran.
     */
    record Sides(
            Metric metric,
            List<BenchResult> before,
            List<BenchResult> after,
            List<Double> beforeRounds,
            List<Double> afterRounds) {}

    /**
     * The samples a figure is judged on: per round its windows' values (or the round's one value), and the samples
     * the test compares, in the {@code unit} they are counted in; {@code perRound} batches a round.
     */
    private record Samples(
            boolean windows, List<double[]> bs, List<double[]> as, double[] b, double[] a, String unit, int perRound) {}

    /** What a test found: the ratio, its interval and p-values, the figures shown either side and the drift. */
    private record Found(
            double ratio,
            double low,
            double high,
            double p,
            double equivalenceP,
            double drift,
            double beforeShown,
            double afterShown,
            Optional<String> notDecisive) {}

    static MetricComparison measure(Sides sides, double floor, Controls controls, double level) {
        Samples s = samples(sides, controls);
        Optional<String> notDecisive = whyNotDecisive(sides, s);
        Found f = controls.present()
                ? withControls(sides, s, controls, level, notDecisive)
                : betweenMoments(s, floor, level, notDecisive);
        List<Double> beforeRounds = sides.beforeRounds();
        List<Double> afterRounds = sides.afterRounds();
        return new MetricComparison(
                sides.metric(),
                beforeRounds,
                afterRounds,
                Median.of(beforeRounds),
                Median.of(afterRounds),
                spread(beforeRounds),
                spread(afterRounds),
                f.ratio(),
                Verdict.INCONCLUSIVE,
                s.unit(),
                s.b().length,
                s.a().length,
                f.low(),
                f.high(),
                f.p(),
                Double.NaN,
                floor,
                f.notDecisive(),
                // with controls, the before figure the change is over is the host's before times
                // the controls' drift: what the host would show at the after moment unchanged
                f.beforeShown() * f.drift(),
                f.afterShown(),
                f.beforeShown(),
                Optional.empty(),
                // replaced by the verdict's own reason once the figures are judged together
                Optional.of(f.notDecisive().orElse("not yet judged")),
                f.equivalenceP());
    }

    private static Samples samples(Sides sides, Controls controls) {
        Metric metric = sides.metric();
        boolean windows = hasWindows(sides.before())
                && hasWindows(sides.after())
                && (!controls.present() || (hasWindows(controls.before()) && hasWindows(controls.after())));
        List<double[]> bs = windows ? windowValues(metric, sides.before()) : perRound(sides.beforeRounds());
        List<double[]> as = windows ? windowValues(metric, sides.after()) : perRound(sides.afterRounds());
        int perRound = controls.present() || !windows ? 1 : BatchTest.PER_ROUND;
        // between two moments: batches of consecutive windows (one a round without windows); with controls: windows
        double[] b = controls.present() ? all(bs) : BatchTest.batches(bs, perRound);
        double[] a = controls.present() ? all(as) : BatchTest.batches(as, perRound);
        String unit = !windows ? ROUND : controls.present() ? WINDOW : BATCH;
        return new Samples(windows, bs, as, b, a, unit, perRound);
    }

    private static double[] all(List<double[]> samples) {
        return samples.stream().flatMapToDouble(java.util.Arrays::stream).toArray();
    }

    /** Difference in differences against the control hosts, over windows (or rounds without windows). */
    private static Found withControls(
            Sides sides, Samples s, Controls controls, double level, Optional<String> notDecisive) {
        Metric metric = sides.metric();
        List<double[]> cbs =
                s.windows() ? windowValues(metric, controls.before()) : perRound(values(metric, controls.before()));
        List<double[]> cas =
                s.windows() ? windowValues(metric, controls.after()) : perRound(values(metric, controls.after()));
        DifferenceInDifferences.Result did =
                DifferenceInDifferences.of(s.bs(), s.as(), cbs, cas, level, SEED + metric.ordinal());
        if (notDecisive.isEmpty()
                && Math.min(controls.before().size(), controls.after().size()) < 2) {
            notDecisive =
                    Optional.of("one control round on a side: how much the controls' rounds differ is" + " unknown");
        }
        return new Found(
                did.ratio(),
                did.low(),
                did.high(),
                notDecisive.isPresent() ? Double.NaN : did.p(),
                Double.NaN,
                did.controlRatio(),
                Median.of(all(s.bs())),
                Median.of(all(s.as())),
                notDecisive);
    }

    /** The batch verdict's rank tests between the two moments, on the log of the samples. */
    private static Found betweenMoments(Samples s, double floor, double level, Optional<String> notDecisive) {
        BatchTest.Result r = BatchTest.of(s.b(), s.a(), floor, level);
        return new Found(
                r.ratio(),
                r.low(),
                r.high(),
                notDecisive.isPresent() ? Double.NaN : r.p(),
                notDecisive.isPresent() ? Double.NaN : r.equivalenceP(),
                1,
                Math.exp(Median.of(s.b())),
                Math.exp(Median.of(s.a())),
                notDecisive);
    }

    /**
     * Why a figure cannot decide: too few samples (batches, or with controls windows) for a test, one round on a
     * side, or a percentile with fewer than {@link #MIN_TAIL_REQUESTS} requests above it in a sample's requests (a
     * batch's, a window's with controls, a round's without windows).
     */
    private static Optional<String> whyNotDecisive(Sides sides, Samples s) {
        Metric metric = sides.metric();
        String unit = s.unit();
        int nb = s.b().length;
        int na = s.a().length;
        if (metric == Metric.MAX) {
            return Optional.of("the maximum is a single request");
        }
        if (s.windows() && Math.min(sides.before().size(), sides.after().size()) < 2) {
            return Optional.of("one round on a side: how much rounds differ from each other is unknown");
        }
        if (Math.min(nb, na) < MIN_SAMPLES) {
            return Optional.of("only " + nb + " vs " + na + " " + (BATCH.equals(unit) ? "batches" : unit + "s") + "; "
                    + MIN_SAMPLES + " per side are the least a rank test can judge");
        }
        if (metric == Metric.RPS) {
            return Optional.empty();
        }
        long fewest = fewestRequests(sides, s);
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

    /** The fewest requests in one sample (a batch's windows, a window, a round), or Long.MAX_VALUE if none counted. */
    private static long fewestRequests(Sides sides, Samples s) {
        long fewest = Long.MAX_VALUE;
        List<BenchResult> all = new ArrayList<>(sides.before());
        all.addAll(sides.after());
        for (BenchResult r : all) {
            if (s.windows()) {
                int parts = BATCH.equals(s.unit()) ? s.perRound() : r.windows().size();
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
        return fewest;
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
