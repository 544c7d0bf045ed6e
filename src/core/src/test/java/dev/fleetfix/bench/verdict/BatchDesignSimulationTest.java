package dev.fleetfix.bench.verdict;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fleetfix.bench.Metric;
import dev.fleetfix.bench.Phase;
import dev.fleetfix.bench.plan.BenchRun;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.commons.statistics.distribution.BetaDistribution;
import org.junit.jupiter.api.Test;

/**
 * The designs of issue 43 measured on the same simulated windows ({@link BenchmarkWindows}: autocorrelated,
 * heavy-tailed, drifting within a side and between the two moments): how often an A/A pair is called improved or
 * regressed, how often it reads no change detected, how often a 10 % CPU quota and a latency tail are called, the
 * power curve, and the benchmark's time per host. Seeded: every run gives the same counts.
 *
 * <p>The bound on a false-call rate is the one-sided 95 % Clopper–Pearson upper limit of the binomial proportion
 * (Beta(x + 1, n − x) quantile): "at most 1 %" is asserted as that limit at or below 1 %, which with 1,000 A/A
 * comparisons allows at most 4 false calls.
 */
class BatchDesignSimulationTest {
    private static final int AA = 1000;
    private static final int EFFECTS = 200;
    private static final int POWER = 60;

    /** The 10 % CPU quota of the lab (rps −87 %, p99 +11,700 %), its windows jumpier. */
    private static final Map<Metric, Double> THROTTLE =
            Map.of(Metric.RPS, 0.13, Metric.P50, 8.0, Metric.P90, 20.0, Metric.P99, 117.0, Metric.P999, 117.0);

    /**
     * How much a throttled Redis's rounds differ: on the lab its rounds disagreed far more than their windows (the
     * rank test's design effect about 6 of a possible 10).
     */
    private static final double THROTTLED_ROUNDS = 0.15;

    /** A slow command from a second client: p99.9 four times, the median untouched. */
    private static final Map<Metric, Double> TAIL = Map.of(Metric.P999, 4.0);

    enum Judge {
        /** The rule before batches ({@link OldWindowRule}). */
        OLD_WINDOWS,
        /** What the verdict uses: {@link BeforeAfter#DEFAULT} on the side's rounds. */
        SHIPPED,
        /** The same with the floors before 2026-12-07's quiet calibration: 20 %, 50 % from p99 up. */
        BATCHES_OLD_FLOORS
    }

    private static final BeforeAfter OLD_FLOORS = new BeforeAfter(0.05, 0.20, 0.50, 0.01, 0.95);

    record Design(String name, Judge judge, int rounds, int windows, double windowSeconds) {
        /** Both sides, each a discarded 1 s client warm-up then its rounds. */
        double secondsPerHost() {
            return 2 * (1 + rounds * windows * windowSeconds);
        }
    }

    static final Design OLD =
            new Design("3 rounds of 3 s, window rule (shipped until issue 43)", Judge.OLD_WINDOWS, 3, 10, 0.3);
    static final Design PREVIOUS =
            new Design("7 rounds of 2 s, window rule (shipped before batches)", Judge.OLD_WINDOWS, 7, 8, 0.25);
    static final Design SHIPPED =
            new Design("4 rounds of 3 s, 2 batches a round, floors 30 % / 60 % (shipped)", Judge.SHIPPED, 4, 10, 0.3);
    static final Design BATCHES_20 = new Design(
            "4 rounds of 3 s, 2 batches a round, floors 20 % / 50 % (shipped until 2026-12-07)",
            Judge.BATCHES_OLD_FLOORS, 4, 10, 0.3);

    /** Per figure, its verdict; and the test's. */
    record Outcome(Verdict verdict, Map<Metric, Verdict> figures) {
        Verdict of(Metric m) {
            return figures.getOrDefault(m, Verdict.INCONCLUSIVE);
        }
    }

    static Outcome compare(Design d, long seed, Map<Metric, Double> effect, double roundSigma) {
        BenchmarkWindows model = new BenchmarkWindows(seed, d.rounds(), d.windows(), d.windowSeconds());
        Map<Metric, List<double[]>> before = model.side(false, Map.of(), BenchmarkWindows.ROUND_SIGMA);
        Map<Metric, List<double[]>> after = model.side(true, effect, roundSigma);
        if (d.judge() == Judge.OLD_WINDOWS) {
            Map<Metric, Verdict> figures = OldWindowRule.judge(model, before, after);
            return new Outcome(Verdict.combine(figures.values()), figures);
        }
        Map<Metric, Verdict> figures = new EnumMap<>(Metric.class);
        List<BenchRun> runs = new ArrayList<>(model.runs("h", Phase.BEFORE, before));
        runs.addAll(model.runs("h", Phase.AFTER, after));
        TestComparison c = (d.judge() == Judge.SHIPPED ? BeforeAfter.DEFAULT : OLD_FLOORS)
                .perHost(runs)
                .get(0);
        c.metrics().stream().filter(MetricComparison::decisive).forEach(m -> figures.put(m.metric(), m.verdict()));
        return new Outcome(c.verdict(), figures);
    }

    /** The one-sided 95 % Clopper–Pearson upper limit of a proportion seen {@code x} times in {@code n}. */
    static double upper95(int x, int n) {
        return x == n ? 1 : BetaDistribution.of(x + 1, n - x).inverseCumulativeProbability(0.95);
    }

    /**
     * @param tailCalled comparisons under the tail whose p99.9 was called regressed
     * @param tailWithMedianSame those of them whose median read no change detected at the same time
     */
    record Row(
            Design design,
            int aa,
            int falseCalls,
            int noChange,
            int effects,
            int throttled,
            int tailCalled,
            int tailWithMedianSame) {}

    static Row measure(Design d, int aa, int effects) {
        int falseCalls = 0;
        int same = 0;
        for (int i = 0; i < aa; i++) {
            Outcome o = compare(d, 1_000 + i, Map.of(), BenchmarkWindows.ROUND_SIGMA);
            falseCalls += o.verdict().called() ? 1 : 0;
            same += o.verdict() == Verdict.NO_CHANGE_DETECTED ? 1 : 0;
        }
        int throttled = 0;
        int tail = 0;
        int both = 0;
        for (int i = 0; i < effects; i++) {
            throttled += compare(d, 50_000 + i, THROTTLE, THROTTLED_ROUNDS).verdict() == Verdict.REGRESSED ? 1 : 0;
            Outcome t = compare(d, 90_000 + i, TAIL, BenchmarkWindows.ROUND_SIGMA);
            boolean called = t.of(Metric.P999) == Verdict.REGRESSED;
            tail += called ? 1 : 0;
            both += called && t.of(Metric.P50) == Verdict.NO_CHANGE_DETECTED ? 1 : 0;
        }
        return new Row(d, aa, falseCalls, same, effects, throttled, tail, both);
    }

    /**
     * The smallest change of one figure alone, of those tried in order, called regressed on that figure in at least
     * 95 % of {@code n} comparisons; "none up to" the largest tried otherwise.
     */
    static String smallestCalled(Design d, Metric metric, double[] ratios, int n) {
        for (double ratio : ratios) {
            int called = 0;
            for (int i = 0; i < n; i++) {
                called += compare(d, 200_000 + i, Map.of(metric, ratio), BenchmarkWindows.ROUND_SIGMA)
                                        .of(metric)
                                == Verdict.REGRESSED
                        ? 1
                        : 0;
            }
            if (called * 100 >= n * 95) {
                return String.format(Locale.ROOT, "%+.0f %% (%d of %d)", (ratio - 1) * 100, called, n);
            }
        }
        return String.format(Locale.ROOT, "none up to %+.0f %%", (ratios[ratios.length - 1] - 1) * 100);
    }

    static final double[] RPS_LOSSES = {0.9, 0.85, 0.8, 0.75, 0.7, 0.65, 0.6, 0.5, 0.4};
    static final double[] P99_RISES = {1.25, 1.5, 1.75, 2, 2.5, 3, 4, 6};

    /**
     * The shipped design against issue 43's targets, with its known answers: the seeds make every run give these
     * counts, so a change to the verdict that moves one shows here.
     */
    @Test
    void theShippedDesignCallsBothWaysWithinItsLevels() {
        Row r = measure(SHIPPED, AA, EFFECTS);
        print(r);
        assertThat(DesignCheck.of(new DesignCheck.Design(4, 2, 6, 0.01, 0.05)).sound())
                .isTrue();
        // at most 1 % false calls on A/A, with 95 % confidence: 0 of 1,000 bound 0.30 %
        assertThat(upper95(r.falseCalls(), r.aa())).isLessThanOrEqualTo(0.01);
        // the model's windows copy a busy lab's (a stall in 6 windows of 10), its drift between the moments the quiet
        // lab's; the 70 % of issue 43 is the quiet lab's, which bench/verdict-sensitivity.sh measures
        assertThat(r.noChange()).isGreaterThanOrEqualTo(AA * 70 / 100);
        assertThat(r.throttled()).isEqualTo(EFFECTS);
        // p99.9 four times as high, under stalls in 6 windows of 10 and spikes in one in ten; the 60 % floor
        // and the batch's request rule set how often, not the batches' count
        assertThat(r.tailCalled()).isGreaterThanOrEqualTo(EFFECTS * 75 / 100);
        assertThat(r.tailWithMedianSame()).isGreaterThanOrEqualTo(EFFECTS * 70 / 100);
        assertThat(List.of(r.falseCalls(), r.noChange(), r.throttled(), r.tailCalled(), r.tailWithMedianSame()))
                .isEqualTo(SHIPPED_ANSWERS);
    }

    /**
     * What {@link #theShippedDesignCallsBothWaysWithinItsLevels} measured: false calls, no change detected, quota
     * called, p99.9 tail called, tail called with the median no change detected.
     */
    static final List<Integer> SHIPPED_ANSWERS = List.of(0, 733, 200, 167, 161);

    @Test
    void theOldDesignsCannotSeeWhatTheShippedOneSees() {
        // the same seeds as the shipped design's first 100 A/A pairs and 30 effects
        Row old = measure(OLD, 100, 30);
        Row previous = measure(PREVIOUS, 100, 30);
        print(old);
        print(previous);
        // three rounds: the throttle is not always called, and A/A pairs rarely read no change
        assertThat(old.throttled()).isLessThan(30);
        assertThat(old.noChange()).isLessThan(70);
        // seven rounds of 2 s: p99.9 cannot decide in 250 ms windows at 44,000 rps, so the tail is not seen
        assertThat(previous.throttled()).isEqualTo(30);
        assertThat(previous.tailCalled()).isLessThan(30 * 10 / 100);
        assertThat(List.of(
                        old.falseCalls(), old.noChange(), old.throttled(), old.tailCalled(), old.tailWithMedianSame()))
                .isEqualTo(OLD_ANSWERS);
        assertThat(List.of(
                        previous.falseCalls(),
                        previous.noChange(),
                        previous.throttled(),
                        previous.tailCalled(),
                        previous.tailWithMedianSame()))
                .isEqualTo(PREVIOUS_ANSWERS);
    }

    static final List<Integer> OLD_ANSWERS = List.of(0, 8, 19, 8, 6);
    static final List<Integer> PREVIOUS_ANSWERS = List.of(2, 72, 30, 1, 1);

    @Test
    void theShippedPowerCurve() {
        // 60 comparisons a change: the 30 % floor (60 % from p99 up), which a call's test must clear, and the drift
        // between the moments set these
        assertThat(smallestCalled(SHIPPED, Metric.RPS, RPS_LOSSES, POWER)).isEqualTo("-50 % (59 of 60)");
        assertThat(smallestCalled(SHIPPED, Metric.P99, P99_RISES, POWER)).isEqualTo("+300 % (60 of 60)");
    }

    /**
     * The table of docs/benchmarks-and-verdicts.md, the three designs side by side in one run, with the power
     * curve: {@link #main} prints it; it is a measurement, not a test, so the suite neither runs nor skips it.
     */
    static void table(int aa, int effects, int power) {
        System.out.println(
                "| design | A/A false calls (95 % bound) | A/A no change detected | 10 % quota called regressed"
                        + " | p99.9 tail called | tail called with the median no change detected | smallest rps loss called"
                        + " 95 % | smallest p99 rise called 95 % | per host |");
        for (Design d : List.of(OLD, PREVIOUS, BATCHES_20, SHIPPED)) {
            Row r = measure(d, aa, effects);
            System.out.printf(
                    Locale.ROOT,
                    "| %s | %s | %s | %s | %s | %s | %s | %s | %.0f s |%n",
                    d.name(),
                    count(r.falseCalls(), r.aa())
                            + String.format(Locale.ROOT, " (≤ %.2f %%)", 100 * upper95(r.falseCalls(), r.aa())),
                    String.format(Locale.ROOT, "%.0f %%", 100.0 * r.noChange() / r.aa()),
                    count(r.throttled(), effects),
                    count(r.tailCalled(), effects),
                    count(r.tailWithMedianSame(), effects),
                    smallestCalled(d, Metric.RPS, RPS_LOSSES, power),
                    smallestCalled(d, Metric.P99, P99_RISES, power),
                    d.secondsPerHost());
        }
    }

    /**
     * The table of docs/benchmarks-and-verdicts.md, from the test class path: {@code mvn -pl src/core test-compile
     * exec:java -Dexec.classpathScope=test -Dexec.mainClass=dev.fleetfix.bench.verdict.BatchDesignSimulationTest
     * -Dexec.args="1000 100 60"} (A/A pairs, effect comparisons, comparisons per power point).
     */
    public static void main(String[] args) {
        int aa = args.length > 0 ? Integer.parseInt(args[0]) : AA;
        int effects = args.length > 1 ? Integer.parseInt(args[1]) : 100;
        int power = args.length > 2 ? Integer.parseInt(args[2]) : POWER;
        aaSpread(aa);
        table(aa, effects, power);
    }

    /**
     * The model's A/A spread, to set against the lab's: per figure, the standard deviation over {@code n} A/A pairs of
     * the log ratio of the two sides' window means (the shipped design's sides).
     */
    static void aaSpread(int n) {
        Map<Metric, double[]> logs = new EnumMap<>(Metric.class);
        BenchmarkWindows.FIGURES.forEach(m -> logs.put(m, new double[n]));
        for (int i = 0; i < n; i++) {
            BenchmarkWindows model =
                    new BenchmarkWindows(1_000 + i, SHIPPED.rounds(), SHIPPED.windows(), SHIPPED.windowSeconds());
            Map<Metric, List<double[]>> before = model.side(false, Map.of(), BenchmarkWindows.ROUND_SIGMA);
            Map<Metric, List<double[]>> after = model.side(true, Map.of(), BenchmarkWindows.ROUND_SIGMA);
            for (Metric m : BenchmarkWindows.FIGURES) {
                logs.get(m)[i] = Math.log(mean(after.get(m)) / mean(before.get(m)));
            }
        }
        StringBuilder line =
                new StringBuilder("A/A log ratio of the sides' window means, standard deviation over " + n);
        logs.forEach((m, v) -> {
            double mu = java.util.Arrays.stream(v).average().orElse(0);
            double var =
                    java.util.Arrays.stream(v).map(x -> (x - mu) * (x - mu)).sum() / (v.length - 1);
            line.append(String.format(Locale.ROOT, "; %s %.3f", m, Math.sqrt(var)));
        });
        System.out.println(line);
    }

    private static double mean(List<double[]> rounds) {
        return rounds.stream()
                .flatMapToDouble(java.util.Arrays::stream)
                .average()
                .orElse(Double.NaN);
    }

    private static String count(int x, int n) {
        return String.format(Locale.ROOT, "%d of %d", x, n);
    }

    private static void print(Row r) {
        System.out.printf(
                Locale.ROOT,
                "%s: A/A false calls %d of %d (95 %% bound %.2f %%), no change %d of %d; quota %d of %d, p99.9 tail"
                        + " %d, with the median no change detected %d%n",
                r.design().name(),
                r.falseCalls(),
                r.aa(),
                100 * upper95(r.falseCalls(), r.aa()),
                r.noChange(),
                r.aa(),
                r.throttled(),
                r.effects(),
                r.tailCalled(),
                r.tailWithMedianSame());
    }
}
