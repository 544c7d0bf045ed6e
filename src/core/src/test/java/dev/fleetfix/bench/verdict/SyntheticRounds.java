package dev.fleetfix.bench.verdict;

import dev.fleetfix.bench.BenchResult;
import dev.fleetfix.bench.Latency;
import dev.fleetfix.bench.Phase;
import dev.fleetfix.bench.WindowSample;
import dev.fleetfix.bench.plan.BenchRun;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalLong;
import java.util.SplittableRandom;

/**
 * Benchmark rounds with windows drawn from a known model, for testing the statistics: every
 * window's latencies are {@code base × shift × roundFactor × windowNoise}, its throughput the
 * inverse, where the round factor (drift between rounds) and the window noise are log-normal, or
 * the window noise Pareto for heavy tails.
 */
final class SyntheticRounds {
    static final double WINDOW_SECONDS = 0.3;

    private final SplittableRandom random;
    int rounds = 4;
    int windows = 10;
    double baseRps = 40_000;
    double baseP50 = 0.25;
    double roundSigma = 0.02;
    double windowSigma = 0.08;
    boolean heavyTails;

    SyntheticRounds(long seed) {
        this.random = new SplittableRandom(seed);
    }

    /** Many precise samples: 6 rounds a side, 0.2 % drift between rounds, 0.5 % window noise. */
    static SyntheticRounds precise(long seed) {
        SyntheticRounds model = new SyntheticRounds(seed);
        model.rounds = 6;
        model.roundSigma = 0.002;
        model.windowSigma = 0.005;
        return model;
    }

    /** One side: {@code latencyShift} multiplies every latency and divides the throughput. */
    List<BenchRun> side(String host, Phase phase, double latencyShift) {
        List<BenchRun> runs = new ArrayList<>();
        for (int r = 0; r < rounds; r++) {
            double roundFactor = Math.exp(roundSigma * random.nextGaussian());
            List<WindowSample> ws = new ArrayList<>();
            for (int w = 0; w < windows; w++) {
                double noise = heavyTails ? pareto(1.5) : Math.exp(windowSigma * random.nextGaussian());
                double f = latencyShift * roundFactor * noise;
                double rps = baseRps / (latencyShift * roundFactor * Math.exp(windowSigma * random.nextGaussian()));
                long requests = Math.max(1, Math.round(rps * WINDOW_SECONDS));
                ws.add(new WindowSample(
                        WINDOW_SECONDS,
                        requests,
                        baseP50 * f,
                        baseP50 * 1.6 * f,
                        baseP50 * 3 * f,
                        baseP50 * 6 * f * (heavyTails ? pareto(1.2) : 1),
                        baseP50 * 12 * f * (heavyTails ? pareto(1.1) : 1),
                        baseP50 * 40 * f * pareto(1.1)));
            }
            runs.add(new BenchRun(host, "thp", phase, List.of(round(ws))));
        }
        return runs;
    }

    private double pareto(double shape) {
        return Math.pow(1 - random.nextDouble(), -1 / shape);
    }

    /** The round's own figures as the generator would report them: from all its windows together. */
    static BenchResult round(List<WindowSample> ws) {
        long requests = ws.stream().mapToLong(WindowSample::requests).sum();
        double seconds = ws.stream().mapToDouble(WindowSample::seconds).sum();
        Latency latency = new Latency(
                OptionalDouble.empty(),
                OptionalDouble.empty(),
                OptionalDouble.of(
                        ws.stream().mapToDouble(WindowSample::max).max().orElseThrow()),
                Map.of(
                        50.0, median(ws.stream().mapToDouble(WindowSample::p50).toArray()),
                        90.0, median(ws.stream().mapToDouble(WindowSample::p90).toArray()),
                        99.0, median(ws.stream().mapToDouble(WindowSample::p99).toArray()),
                        99.9, median(ws.stream().mapToDouble(WindowSample::p999).toArray()),
                        99.99,
                                median(ws.stream()
                                        .mapToDouble(WindowSample::p9999)
                                        .toArray())),
                List.of(),
                Optional.empty());
        return new BenchResult("SET", requests / seconds, OptionalLong.of(requests), latency, ws, Optional.empty());
    }

    private static double median(double[] v) {
        return dev.fleetfix.bench.verdict.stats.Median.of(v);
    }

    List<BenchRun> comparison(String host, double latencyShift) {
        List<BenchRun> all = new ArrayList<>(side(host, Phase.BEFORE, 1));
        all.addAll(side(host, Phase.AFTER, latencyShift));
        return all;
    }
}
