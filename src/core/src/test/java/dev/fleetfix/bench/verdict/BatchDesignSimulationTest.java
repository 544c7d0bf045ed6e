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
        CURRENT,
        PROPOSED
    }

    /**
     * @param batchesPerRound with {@link Judge#PROPOSED}, batches each round is cut into
     */
    record Design(String name, Judge judge, int rounds, int windows, double windowSeconds, int batchesPerRound) {
        /** Both sides, each a discarded 1 s client warm-up then its rounds. */
        double secondsPerHost() {
            return 2 * (1 + rounds * windows * windowSeconds);
        }
    }

    static final Design OLD = new Design("3 rounds of 3 s (shipped)", Judge.CURRENT, 3, 10, 0.3, 1);
    static final Design CURRENT_7 = new Design("7 rounds of 2 s, today's test", Judge.CURRENT, 7, 8, 0.25, 1);
    static final Design CURRENT_7_LONG = new Design("7 rounds of 3 s, today's test", Judge.CURRENT, 7, 10, 0.3, 1);
    static final Design PROPOSED_8 = new Design("8 rounds of 2 s, batch rank", Judge.PROPOSED, 8, 8, 0.25, 1);
    static final Design PROPOSED_4X2 = new Design("4 rounds of 3 s, 2 batches a round", Judge.PROPOSED, 4, 10, 0.3, 2);

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
        Map<Metric, Verdict> figures = new EnumMap<>(Metric.class);
        if (d.judge() == Judge.CURRENT) {
            List<BenchRun> runs = new ArrayList<>(model.runs("h", Phase.BEFORE, before));
            runs.addAll(model.runs("h", Phase.AFTER, after));
            TestComparison c = BeforeAfter.DEFAULT.perHost(runs).get(0);
            c.metrics().stream().filter(MetricComparison::decisive).forEach(m -> figures.put(m.metric(), m.verdict()));
            return new Outcome(c.verdict(), figures);
        }
        List<BatchJudge.Figure> decisive = new ArrayList<>();
        for (Metric m : BenchmarkWindows.FIGURES) {
            if (model.decisive(m, before, after)) {
                decisive.add(new BatchJudge.Figure(
                        m, before.get(m), after.get(m), Thresholds.DEFAULT.floor(m, Controls.NONE)));
            }
        }
        BatchJudge.Result r = new BatchJudge(d.batchesPerRound(), 0.01, 0.05, 0.95).judge(decisive);
        r.figures().forEach(j -> figures.put(j.metric(), j.verdict()));
        return new Outcome(r.verdict(), figures);
    }

    /** The one-sided 95 % Clopper–Pearson upper limit of a proportion seen {@code x} times in {@code n}. */
    static double upper95(int x, int n) {
        return x == n ? 1 : BetaDistribution.of(x + 1, n - x).inverseCumulativeProbability(0.95);
    }

    record Row(Design design, int aa, int falseCalls, int noChange, int throttled, int tailCalled, int medianSame) {}

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
        int median = 0;
        for (int i = 0; i < effects; i++) {
            throttled += compare(d, 50_000 + i, THROTTLE, THROTTLED_ROUNDS).verdict() == Verdict.REGRESSED ? 1 : 0;
            Outcome t = compare(d, 90_000 + i, TAIL, BenchmarkWindows.ROUND_SIGMA);
            tail += t.of(Metric.P999) == Verdict.REGRESSED ? 1 : 0;
            median += t.of(Metric.P50) == Verdict.NO_CHANGE_DETECTED ? 1 : 0;
        }
        return new Row(d, aa, falseCalls, same, throttled, tail, median);
    }

    /** The smallest change of one figure alone called regressed on that figure in at least 95 % of comparisons. */
    static String smallestCalled(Design d, Metric metric, double[] ratios) {
        for (double ratio : ratios) {
            int called = 0;
            for (int i = 0; i < POWER; i++) {
                called += compare(d, 200_000 + i, Map.of(metric, ratio), BenchmarkWindows.ROUND_SIGMA)
                                        .of(metric)
                                == Verdict.REGRESSED
                        ? 1
                        : 0;
            }
            if (called >= POWER * 95 / 100) {
                return String.format(Locale.ROOT, "%+.0f %% (%d of %d)", (ratio - 1) * 100, called, POWER);
            }
        }
        return "none tried";
    }

    private static final double[] RPS_LOSSES = {0.9, 0.85, 0.8, 0.75, 0.7, 0.65, 0.6, 0.5, 0.4};
    private static final double[] P99_RISES = {1.25, 1.5, 1.75, 2, 2.5, 3, 4, 6};

    @Test
    void theProposedDesignCallsBothWaysWithinItsLevels() {
        Row r = measure(PROPOSED_4X2, AA, EFFECTS);
        assertThat(DesignCheck.of(new DesignCheck.Design(DesignCheck.Test.BATCHES, 8, 1, 6, 0.01, 0.05))
                        .sound())
                .isTrue();
        print(r);
        // at most 1 % false calls on A/A, with 95 % confidence
        assertThat(upper95(r.falseCalls(), r.aa())).isLessThanOrEqualTo(0.01);
        assertThat(r.noChange()).isGreaterThanOrEqualTo(AA * 70 / 100);
        assertThat(r.throttled()).isEqualTo(EFFECTS);
        // p99.9 four times as high, under its own 30 % window noise and spikes in one window in ten: called on
        // about 85 % (its 50 % floor and the per-window request rule set this, not the batches)
        assertThat(r.tailCalled()).isGreaterThanOrEqualTo(EFFECTS * 75 / 100);
        assertThat(r.medianSame()).isGreaterThanOrEqualTo(EFFECTS * 70 / 100);
    }

    @Test
    void theShippedThreeRoundDesignCannotCallTheThrottle() {
        // today's shipped design on the same windows: its rank test cannot reach Holm's first step when rounds
        // differ, and its 3-round bootstrap interval rarely fits inside the floor
        Row r = measure(OLD, 100, 30);
        print(r);
        assertThat(r.throttled()).isLessThan(30);
        assertThat(r.noChange()).isLessThan(100 * 70 / 100);
    }

    /**
     * The table of docs/benchmarks-and-verdicts.md, every design side by side (about 20 minutes on two busy cores):
     * {@link #main} prints it; it is a measurement, not a test, so the suite neither runs nor skips it.
     */
    static void table() {
        System.out.println("design | A/A false calls (95 % bound) | A/A no change | throttle called | p99.9 tail called"
                + " | median no change under the tail | smallest rps loss called 95 % | smallest p99 rise called 95 %"
                + " | seconds per host");
        for (Design d : List.of(OLD, CURRENT_7, CURRENT_7_LONG, PROPOSED_8, PROPOSED_4X2)) {
            Row r = measure(d, AA, 100);
            System.out.printf(
                    Locale.ROOT,
                    "%s | %s | %s | %s | %s | %s | %s | %s | %.0f%n",
                    d.name(),
                    count(r.falseCalls(), r.aa())
                            + String.format(Locale.ROOT, " (≤ %.2f %%)", 100 * upper95(r.falseCalls(), r.aa())),
                    count(r.noChange(), r.aa()),
                    count(r.throttled(), 100),
                    count(r.tailCalled(), 100),
                    count(r.medianSame(), 100),
                    smallestCalled(d, Metric.RPS, RPS_LOSSES),
                    smallestCalled(d, Metric.P99, P99_RISES),
                    d.secondsPerHost());
        }
    }

    /** A/A only, 1,000 comparisons of today's test at 7 rounds; run alone with -Dsim.aa=true. */
    /**
     * The table of docs/benchmarks-and-verdicts.md (about 20 minutes on two busy cores), then today's test at seven
     * rounds on A/A pairs alone, from the test class path: {@code mvn -pl src/core test-compile exec:java
     * -Dexec.classpathScope=test -Dexec.mainClass=dev.fleetfix.bench.verdict.BatchDesignSimulationTest}.
     */
    public static void main(String[] args) {
        table();
        aaOfTodaysTestAtSevenRounds();
    }

    static void aaOfTodaysTestAtSevenRounds() {
        for (Design d : List.of(CURRENT_7_LONG, CURRENT_7)) {
            print(measure(d, AA, 0));
        }
    }

    private static String count(int x, int n) {
        return String.format(Locale.ROOT, "%d of %d", x, n);
    }

    private static void print(Row r) {
        System.out.printf(
                Locale.ROOT,
                "%s: A/A false calls %d of %d (95 %% bound %.2f %%), no change %d of %d; throttle %d, p99.9 tail %d,"
                        + " median no change under the tail %d%n",
                r.design().name(),
                r.falseCalls(),
                r.aa(),
                100 * upper95(r.falseCalls(), r.aa()),
                r.noChange(),
                r.aa(),
                r.throttled(),
                r.tailCalled(),
                r.medianSame());
    }
}
