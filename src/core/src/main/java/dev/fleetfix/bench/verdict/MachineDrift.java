package dev.fleetfix.bench.verdict;

import dev.fleetfix.bench.BenchResult;
import dev.fleetfix.bench.ClientCpu;
import dev.fleetfix.bench.Metric;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.ToDoubleFunction;

/**
 * How much of this machine's CPU went to work other than fleetfix's own during each side of a
 * plain before/after comparison: the load of everything else that runs beside the generator.
 *
 * <p>The two sides are minutes apart. When other work takes more of the machine during the after
 * side, the generator gets less CPU and a host that did not change serves fewer requests; when it
 * takes less, more. A throughput change in the direction that this drift alone would cause is
 * therefore not called ({@link #explains}); one against it still is, since drift would have hidden
 * it rather than made it. So a Redis throttled by its CPU quota, which itself then uses less of the
 * machine when it runs here as in the lab, is still called regressed. Nor is one larger than the
 * drift can make: a generator whose CPU came {@code s} times slower serves at most {@code s} times
 * fewer requests, and Redis, when it shares this machine (the lab), may have been slowed as much again
 * without this process seeing it. So the drift's reach is {@code s * s}, and a throughput that fell
 * further than that, by more than the effect floor again ({@link #MARGIN}), is called. On the lab a
 * 10 % CPU quota took rps down 88 % while the generator's CPU came 1.6 times slower (a reach of 2.6:
 * down to 0.27 with the margin), and that was withheld; busy loops as many as the cores took an
 * unchanged host's rps down 48 % with a slowdown of 2 (a reach of 4: down to 0.18).
 *
 * <p>Latencies have no such direction. The generator is a closed loop: starved of CPU it both adds
 * its own delay to what it measures and sends fewer requests at once, so Redis queues less. On the
 * lab, busy loops beside an unchanged host took both rps and the median latency down (see
 * docs/benchmarks-and-verdicts.md#measurements-behind-the-defaults). Under a large drift a
 * latency change is not called either way.
 *
 * <p>A machine already saturated cannot show more work as a busier share: its busy share is near 1 on
 * both sides, and work that arrives takes its CPU from what was there, the generator's too. Busy loops
 * beside a lab run of the suite under stress-ng raised other work from 71 % to 76 % only, and an
 * unchanged host was called regressed. So the guard also reads how long fleetfix's own threads waited
 * for a core when they were ready to run ({@link dev.fleetfix.bench.ClientCpu#waitShare}), read as how
 * many times longer each slice of CPU took ({@link #stretch()}): that keeps growing with the competition
 * for the cores, saturated or not, where the share itself nears 1 as the busy share does.
 *
 * <p>Difference in differences (control hosts) takes drift out of the change itself and makes this
 * guard unneeded; it applies to designs without controls.
 *
 * @param before mean share of the machine's CPU busy outside this process over the before rounds, 0..1
 * @param after the same over the after rounds
 * @param waitBefore mean share of their ready time this process's threads waited for a core over the
 *     before rounds, 0..1; NaN when a round has no such figure
 * @param waitAfter the same over the after rounds
 */
public record MachineDrift(double before, double after, double waitBefore, double waitAfter) {

    /**
     * A rise or fall of this many points of the machine's CPU is enough to move a benchmark by more
     * than its effect floor on the lab's 2 cores (where a tenth of the machine is a fifth of a core).
     */
    public static final double POINTS = 0.10;

    /**
     * How many times longer (or shorter) fleetfix's threads took to get their CPU time on one side than on
     * the other, enough to say the competition for the cores changed. A ratio, not points of the wait
     * share, because that share saturates too: from 86 % to 93 % is 7 points but a wait twice as long for
     * each slice of CPU, where 10 % to 17 % makes it 8 % longer. On the lab, 20 A/A pairs on a quiet
     * machine moved it by 0.81 to 1.25 times; busy loops as many as the cores, by 1.98 (quiet) and 2.0
     * (the suite under stress-ng, where the busy share rose 1 point).
     */
    public static final double STRETCH = 1.5;

    /**
     * How much further than the drift's own reach (the square of {@link #slowdown()}, {@link #speedup()}) a
     * throughput change must go before the drift no longer explains it: throughput's effect floor between two
     * moments ({@link Thresholds#DEFAULT}), the A/A drift that no guard sees.
     */
    public static final double MARGIN = Thresholds.DEFAULT.driftFloor();

    /** Without the threads' wait figures. */
    public MachineDrift(double before, double after) {
        this(before, after, Double.NaN, Double.NaN);
    }

    /** From the rounds' CPU figures; empty when a round on either side has none. */
    public static Optional<MachineDrift> of(List<BenchResult> before, List<BenchResult> after) {
        Optional<Double> b = mean(before, c -> Math.max(0, c.machineShare() - c.processShare()));
        Optional<Double> a = mean(after, c -> Math.max(0, c.machineShare() - c.processShare()));
        if (b.isEmpty() || a.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(new MachineDrift(
                b.get(),
                a.get(),
                mean(before, ClientCpu::waitShare).orElse(Double.NaN),
                mean(after, ClientCpu::waitShare).orElse(Double.NaN)));
    }

    /** The mean of a figure over the rounds; empty when a round has no CPU figures or the figure is unknown. */
    private static Optional<Double> mean(List<BenchResult> rounds, ToDoubleFunction<ClientCpu> figure) {
        if (rounds.isEmpty()) {
            return Optional.empty();
        }
        double sum = 0;
        for (BenchResult r : rounds) {
            Optional<ClientCpu> cpu = r.clientCpu();
            double value = cpu.map(figure::applyAsDouble).orElse(Double.NaN);
            if (!Double.isFinite(value)) {
                return Optional.empty();
            }
            sum += value;
        }
        return Optional.of(sum / rounds.size());
    }

    /** Points of the machine by which other work rose from before to after; negative when it fell. */
    public double rise() {
        return after - before;
    }

    /**
     * How many times longer fleetfix's threads took to get their CPU time during the after rounds than during the
     * before rounds: a thread that waits a share {@code w} of its ready time gets its CPU {@code 1 / (1 - w)} times
     * slower than on an idle core. Above 1 when the competition for the cores rose; NaN when unknown.
     */
    public double stretch() {
        return (1 - waitBefore) / (1 - waitAfter);
    }

    /**
     * How many times slower the generator can have got its CPU on the after side, by the larger of the two
     * measures: the threads' wait ({@link #stretch()}) and the machine's CPU left to the benchmark ({@code (1 -
     * before) / (1 - after)}).
     */
    public double slowdown() {
        return larger(stretch(), (1 - before) / (1 - after));
    }

    /** Likewise how many times faster it can have got its CPU. */
    public double speedup() {
        return larger(1 / stretch(), (1 - after) / (1 - before));
    }

    private static double larger(double a, double b) {
        return Double.isNaN(a) ? b : Double.isNaN(b) ? a : Math.max(a, b);
    }

    /** Whether the competition for the cores rose by enough to move a benchmark, by either measure. */
    public boolean rose() {
        return rise() >= POINTS || stretch() >= STRETCH;
    }

    /** Whether it fell by enough, by either measure. */
    public boolean fell() {
        return rise() <= -POINTS || stretch() <= 1 / STRETCH;
    }

    public boolean large() {
        return rose() || fell();
    }

    /**
     * Whether this drift alone could make {@code metric} move as {@code ratio} says: throughput
     * down when the competition rose, up when it fell, by no more than the drift's reach (the square of
     * {@link #slowdown()} or {@link #speedup()}: the generator's and, unseen, Redis's) and the
     * {@link #MARGIN}; a latency either way.
     */
    public boolean explains(Metric metric, double ratio) {
        if (!large() || !Double.isFinite(ratio) || ratio == 1) {
            return false;
        }
        if (!metric.higherIsBetter()) {
            return true;
        }
        return ratio < 1
                ? rose() && ratio >= (1 - MARGIN) / (slowdown() * slowdown())
                : fell() && ratio <= speedup() * speedup() / (1 - MARGIN);
    }

    /**
     * "this machine's CPU busy outside fleetfix went from 8 % during the before rounds to 46 % during the after
     * rounds", and how long fleetfix's threads waited for a core when that changed by enough to count.
     */
    public String describe() {
        String other = String.format(
                Locale.ROOT,
                "this machine's CPU busy outside fleetfix went from %.0f %% during the before rounds to %.0f %% during"
                        + " the after rounds",
                before * 100,
                after * 100);
        if (!(stretch() >= STRETCH || stretch() <= 1 / STRETCH)) {
            return other;
        }
        return other
                + String.format(
                        Locale.ROOT,
                        ", and fleetfix's threads waited for a core %.0f %% of their ready time before, %.0f %% after"
                                + " (their CPU came %.1f times %s)",
                        waitBefore * 100,
                        waitAfter * 100,
                        Math.max(stretch(), 1 / stretch()),
                        stretch() > 1 ? "slower" : "faster");
    }
}
