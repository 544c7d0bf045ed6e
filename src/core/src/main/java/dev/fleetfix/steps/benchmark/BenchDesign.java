package dev.fleetfix.steps.benchmark;

import dev.fleetfix.bench.load.LoadGenerator;
import dev.fleetfix.bench.plan.BenchPlan;
import dev.fleetfix.bench.verdict.BeforeAfter;
import dev.fleetfix.bench.verdict.DesignCheck;
import dev.fleetfix.bench.verdict.Sweep;
import dev.fleetfix.bench.verdict.Thresholds;
import java.time.Duration;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * A benchmark's design, checked when the playbook or the command line is read: a before/after pair or a sweep whose
 * verdict could never call a change, or never say no change detected, is refused before any host is touched, naming
 * the rounds that could (see {@link DesignCheck}). A sweep's points are its sides, each pair judged at alpha split
 * over the sweep's comparisons ({@link Sweep}). Designs with control hosts are judged by difference in differences,
 * which has no such floor, and are not checked here.
 */
public final class BenchDesign {
    /**
     * Rounds a side when none are given, builtin engine: 4 rounds of two batches make 8 batches a side, whose exact
     * test reaches p 0.00016 against Holm's first step over 6 figures at 0.01 (0.0017), leaving room for batches that
     * overlap a little (7 batches reach only 0.00058). On simulated lab windows (BatchDesignSimulationTest) 4 rounds
     * of 3 s called a 10 % CPU quota every time, a p99.9 tail 85 of 100 times and no A/A pair in 1,000, at 26 s per
     * host with the warm-ups.
     */
    static final int BUILTIN_ROUNDS = 4;

    /** Likewise with one sample a round (redis-benchmark): 8 rounds are 8 batches a side. */
    static final int REDIS_BENCHMARK_ROUNDS = 8;

    /**
     * Each round's length when none is given: ten windows of 300 ms, two batches of 1.5 s; 4 rounds and the warm-up
     * make a 13 s side. Shorter rounds make fewer requests a batch, and p99.9 needs 10,000 in each to decide.
     */
    static final Duration ROUND_DURATION = Duration.ofSeconds(3);

    /** Samples a round when the load is bounded by requests, not time: the floor barely moves with them. */
    private static final int WINDOWS_UNKNOWN = 10;

    private BenchDesign() {}

    /** The design of {@code plan} as the verdict will judge it. */
    static DesignCheck.Design of(BenchPlan plan) {
        double alpha = BeforeAfter.DEFAULT.alpha();
        int perRound = 1;
        if (plan.engine() != BenchPlan.Engine.REDIS_BENCHMARK) {
            int windows =
                    plan.load().duration().map(LoadGenerator::windowsPerRound).orElse(WINDOWS_UNKNOWN);
            // a round of one window is one sample, as without windows
            perRound = windows < 2 ? 1 : Math.min(DesignCheck.batchesPerRound(), windows);
        }
        return new DesignCheck.Design(
                plan.rounds(),
                perRound,
                DesignCheck.MOST_FIGURES,
                alpha,
                Thresholds.EQUIVALENCE_ALPHA,
                plan.isSweep() ? OptionalInt.of(Sweep.comparisons(plan.sweep())) : OptionalInt.empty());
    }

    /**
     * Why this plan's verdicts (before/after, or a sweep's comparisons) could not say every word; empty when they
     * can.
     *
     * @param roundsField the rounds as the front end spells them: {@code rounds} in a playbook, {@code --rounds}
     */
    public static Optional<String> problem(BenchPlan plan, String roundsField) {
        return DesignCheck.of(of(plan)).problem(roundsField);
    }
}
