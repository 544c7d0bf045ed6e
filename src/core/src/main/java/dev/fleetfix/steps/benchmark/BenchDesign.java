package dev.fleetfix.steps.benchmark;

import dev.fleetfix.bench.load.LoadGenerator;
import dev.fleetfix.bench.plan.BenchPlan;
import dev.fleetfix.bench.verdict.BeforeAfter;
import dev.fleetfix.bench.verdict.DesignCheck;
import java.time.Duration;
import java.util.Optional;

/**
 * A before/after benchmark step's design, checked when the playbook is read: a design whose verdict could never
 * call a change, or never say no change detected, is refused before any host is touched, naming the rounds that
 * could (see {@link DesignCheck}). Sweeps compare their points in alternating rounds and are not checked here;
 * designs with control hosts are judged by difference in differences, which has no such floor.
 */
final class BenchDesign {
    /**
     * Rounds a side when none are given, builtin engine: the fewest with which the rank test over windows, its
     * rounds not overlapping, gets below Holm's first step over 6 figures at 0.01 (7 give p 0.0011 against 0.0017).
     */
    static final int BUILTIN_ROUNDS = 7;

    /** Likewise with one sample a round (redis-benchmark): 8 give p 0.00094, 7 only 0.0022. */
    static final int REDIS_BENCHMARK_ROUNDS = 8;

    /**
     * Each round's length when none is given: eight windows of 250 ms; 7 rounds and the warm-up make a 15 s side. On
     * simulated lab windows (BatchDesignSimulationTest) 7 rounds of 2 s gave 1 false call in 1,000 A/A pairs where 7
     * of 3 s gave 5 (their 300 ms windows let p99.9, the noisiest figure, decide from 33,000 rps instead of 40,000).
     */
    static final Duration ROUND_DURATION = Duration.ofSeconds(2);

    /** Samples a round when the load is bounded by requests, not time: the floor barely moves with them. */
    private static final int WINDOWS_UNKNOWN = 10;

    private BenchDesign() {}

    /** The design of {@code plan} as the verdict will judge it. */
    static DesignCheck.Design of(BenchPlan plan) {
        double alpha = BeforeAfter.DEFAULT.alpha();
        if (plan.engine() == BenchPlan.Engine.REDIS_BENCHMARK) {
            return new DesignCheck.Design(
                    DesignCheck.Test.ONE_SAMPLE_A_ROUND, plan.rounds(), 1, DesignCheck.MOST_FIGURES, alpha, 0.05);
        }
        int windows = plan.load().duration().map(LoadGenerator::windowsPerRound).orElse(WINDOWS_UNKNOWN);
        return new DesignCheck.Design(
                DesignCheck.Test.ROUNDS_OF_WINDOWS,
                plan.rounds(),
                Math.max(1, windows),
                DesignCheck.MOST_FIGURES,
                alpha,
                0.05);
    }

    /** Why this plan's before/after verdict could not say every word; empty when it can. */
    static Optional<String> problem(BenchPlan plan) {
        return DesignCheck.of(of(plan)).problem("rounds");
    }
}
