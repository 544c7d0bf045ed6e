package dev.fleetfix.bench.verdict;

import dev.fleetfix.bench.Metric;
import dev.fleetfix.bench.Phase;
import dev.fleetfix.bench.WindowSample;
import dev.fleetfix.bench.plan.BenchRun;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * Benchmark windows as a real before/after gives them, for simulating verdicts: one time series per side, in which
 * consecutive windows are correlated, innovations are heavy-tailed, the side drifts, rounds differ, the two sides
 * are two moments apart, and a window now and then holds a spike. On the log scale, a window's figure is
 *
 * <pre>
 *   base + moment drift + trend·t + load_t × weight + own_t + spike (+ stall, p99.9)
 *   load_t = 0.7 load_{t−1} + innovation (Student t, 3 df) + round offset          (shared by the figures)
 *   own_t  = 0.4 own_{t−1}  + innovation (Student t, 3 df)                          (each figure's own)
 * </pre>
 *
 * <p>Sizes chosen so that an A/A pair's log ratio spreads as on the quiet lab (rps about 0.10, p99 about 0.17, p99.9
 * about 0.21; docs/benchmarks-and-verdicts.md): the load's stationary sd 5 %, rounds 4 %, a trend of up to ±4 % across
 * a side, a moment drift between the sides of 8.7 % ({@link #MOMENT_SHARED}, and 5.7 % more for p99 and above), the
 * figures' own noise 4 % (rps, p50) to 15 % (p99, p99.9), a spike of up to 2.7
 * times (p99) and 4.5 times (p99.9) in 10 % of the windows (forks under load), and for p99.9 a stall in 6 windows of
 * 10 that triples it ({@link #STALLED}): a window's p99.9 rests on a dozen requests, so it sits near one of two
 * values, as on the lab.
 */
final class BenchmarkWindows {
    /** Figures the verdicts are simulated on; p99.99 and the maximum never decide at these request counts. */
    static final List<Metric> FIGURES = List.of(Metric.RPS, Metric.P50, Metric.P90, Metric.P99, Metric.P999);

    private static final Map<Metric, Double> BASE =
            Map.of(Metric.RPS, 44_000.0, Metric.P50, 0.20, Metric.P90, 0.35, Metric.P99, 0.72, Metric.P999, 2.0);
    private static final Map<Metric, Double> OWN =
            Map.of(Metric.RPS, 0.04, Metric.P50, 0.04, Metric.P90, 0.06, Metric.P99, 0.15, Metric.P999, 0.15);
    /** How the shared load moves each figure: throughput down, latencies up, the tail most. */
    private static final Map<Metric, Double> LOAD =
            Map.of(Metric.RPS, -1.0, Metric.P50, 1.0, Metric.P90, 1.2, Metric.P99, 1.5, Metric.P999, 2.0);

    /** The share of windows with a spike in the tail (a fork, a slow command). */
    static final double SPIKES = 0.10;

    /**
     * The share of windows in which a stall (the benchmark's or Redis's thread descheduled for a few milliseconds)
     * delays the dozen requests p99.9 rests on, and how much it raises the window's p99.9. On the lab's A/A pairs
     * (2026-12-07 08:39 UTC, 18 pairs, 1,440 windows, a busy machine) a window's p99.9 sat either near 0.7 ms or
     * near 3 ms, 56 % of the windows above 2 ms: a window's p99.9 is a coin of two faces, not a value with noise.
     */
    static final double STALLED = 0.6;

    static final double STALL = Math.log(3);

    /**
     * The drift between the two moments, shared by the figures (times each figure's {@link #LOAD} weight), and more for
     * p99 and above: sized so that the A/A log ratio of the sides' window means spreads as over the quiet lab's 36
     * A/A pairs of 2026-12-07 (rps 0.097, p50 0.090, p90 0.111, p99 0.173, p99.9 0.206; the model gives 0.096,
     * 0.097, 0.116, 0.170 and 0.251, {@link BatchDesignSimulationTest#aaSpread}). Until then 0.05 and 0.12, sized on
     * a busy CI run's pairs (rps 0.07, p99 0.17), which left the model's throughput, p50 and p90 drifting less than
     * the quiet lab's.
     */
    static final double MOMENT_SHARED = 0.087;

    static final double MOMENT_TAIL = 0.057;

    /** How much the rounds of an unchanged side differ. */
    static final double ROUND_SIGMA = 0.04;

    private final SplittableRandom random;
    final int rounds;
    final int windowsPerRound;
    final double windowSeconds;

    BenchmarkWindows(long seed, int rounds, int windowsPerRound, double windowSeconds) {
        this.random = new SplittableRandom(seed);
        this.rounds = rounds;
        this.windowsPerRound = windowsPerRound;
        this.windowSeconds = windowSeconds;
    }

    /**
     * One side's windows, per figure, one array per round. {@code effect} multiplies each figure (a regression:
     * rps below 1, latencies above); {@code roundSigma} is how much its rounds differ (4 % on the lab's unchanged
     * Redis; a CPU-throttled one differs far more from round to round than from window to window).
     */
    Map<Metric, List<double[]>> side(boolean after, Map<Metric, Double> effect, double roundSigma) {
        double momentShared = after ? MOMENT_SHARED * random.nextGaussian() : 0;
        double momentTail = after ? MOMENT_TAIL * random.nextGaussian() : 0;
        double trend = (random.nextDouble() * 2 - 1) * 0.04;
        int n = rounds * windowsPerRound;
        Map<Metric, List<double[]>> out = new EnumMap<>(Metric.class);
        Map<Metric, Double> own = new EnumMap<>(Metric.class);
        for (Metric m : FIGURES) {
            out.put(m, new ArrayList<>());
            own.put(m, 0.0);
        }
        double load = 0.05 * studentT();
        double roundOffset = 0;
        for (int t = 0; t < n; t++) {
            if (t % windowsPerRound == 0) {
                roundOffset = roundSigma * random.nextGaussian();
                for (Metric m : FIGURES) {
                    out.get(m).add(new double[windowsPerRound]);
                }
            }
            // stationary sd of the load: 0.05 = innovation sd / sqrt(1 − 0.7²)
            load = 0.7 * load + 0.05 * Math.sqrt(1 - 0.49) * studentT();
            boolean spike = random.nextDouble() < SPIKES;
            boolean stalled = random.nextDouble() < STALLED;
            double spikeSize = random.nextDouble();
            for (Metric m : FIGURES) {
                double o = 0.4 * own.get(m) + OWN.get(m) * Math.sqrt(1 - 0.16) * studentT();
                own.put(m, o);
                double log = Math.log(BASE.get(m) * effect.getOrDefault(m, 1.0))
                        + LOAD.get(m) * (momentShared + trend * t / n + load + roundOffset)
                        + (m.tail() ? momentTail : 0)
                        + o
                        + (spike && m.tail() ? spikeSize * (m == Metric.P999 ? 1.5 : 1.0) : 0)
                        + (stalled && m == Metric.P999 ? STALL : 0);
                out.get(m).get(t / windowsPerRound)[t % windowsPerRound] = Math.exp(log);
            }
        }
        return out;
    }

    /** Student's t with 3 degrees of freedom, scaled to unit variance (its own is 3). */
    private double studentT() {
        double chi = 0;
        for (int i = 0; i < 3; i++) {
            double g = random.nextGaussian();
            chi += g * g;
        }
        return random.nextGaussian() / Math.sqrt(chi / 3) / Math.sqrt(3);
    }

    /** The side as the builtin engine's rounds, for {@link BeforeAfter}. */
    List<BenchRun> runs(String host, Phase phase, Map<Metric, List<double[]>> side) {
        List<BenchRun> runs = new ArrayList<>();
        for (int r = 0; r < rounds; r++) {
            List<WindowSample> ws = new ArrayList<>();
            for (int w = 0; w < windowsPerRound; w++) {
                double rps = side.get(Metric.RPS).get(r)[w];
                double p999 = side.get(Metric.P999).get(r)[w];
                ws.add(new WindowSample(
                        windowSeconds,
                        Math.max(1, Math.round(rps * windowSeconds)),
                        side.get(Metric.P50).get(r)[w],
                        side.get(Metric.P90).get(r)[w],
                        side.get(Metric.P99).get(r)[w],
                        p999,
                        p999 * 2,
                        p999 * 5));
            }
            runs.add(new BenchRun(host, "thp", phase, List.of(SyntheticRounds.round(ws))));
        }
        return runs;
    }

    /**
     * Whether a figure can decide on these sides, by the rule the verdict uses today: every window holds at least
     * 10 requests above the percentile.
     */
    boolean decisive(Metric m, Map<Metric, List<double[]>> before, Map<Metric, List<double[]>> after) {
        double fewest = Double.MAX_VALUE;
        for (Map<Metric, List<double[]>> side : List.of(before, after)) {
            for (double[] round : side.get(Metric.RPS)) {
                for (double rps : round) {
                    fewest = Math.min(fewest, Math.round(rps * windowSeconds));
                }
            }
        }
        return fewest * m.tailShare() >= FigureSamples.MIN_TAIL_REQUESTS;
    }
}
