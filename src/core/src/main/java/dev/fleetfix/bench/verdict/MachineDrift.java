package dev.fleetfix.bench.verdict;

import dev.fleetfix.bench.BenchResult;
import dev.fleetfix.bench.ClientCpu;
import dev.fleetfix.bench.Metric;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * How much of this machine's CPU went to work other than fleetfix's own during each side of a
 * plain before/after comparison: the load of everything else that runs beside the generator.
 *
 * <p>The two sides are minutes apart. When other work takes more of the machine during the after
 * side, the generator gets less CPU and a host that did not change serves fewer requests; when it
 * takes less, more. A throughput change in the direction that this drift alone would cause is
 * therefore not called ({@link #explains}); one against it still is, since drift would have hidden
 * it rather than made it. So a Redis throttled by its CPU quota, which itself then uses less of the
 * machine when it runs here as in the lab, is still called regressed.
 *
 * <p>Latencies have no such direction. The generator is a closed loop: starved of CPU it both adds
 * its own delay to what it measures and sends fewer requests at once, so Redis queues less. On the
 * lab, busy loops beside an unchanged host took both rps and the median latency down (see
 * docs/benchmarks-and-verdicts.md#measurements-behind-the-defaults). Under a large drift a
 * latency change is not called either way.
 *
 * <p>Difference in differences (control hosts) takes drift out of the change itself and makes this
 * guard unneeded; it applies to designs without controls.
 *
 * @param before mean share of the machine's CPU busy outside this process over the before rounds, 0..1
 * @param after the same over the after rounds
 */
public record MachineDrift(double before, double after) {

    /**
     * A rise or fall of this many points of the machine's CPU is enough to move a benchmark by more
     * than its effect floor on the lab's 2 cores (where a tenth of the machine is a fifth of a core).
     */
    public static final double POINTS = 0.10;

    /** From the rounds' CPU figures; empty when a round on either side has none. */
    public static Optional<MachineDrift> of(List<BenchResult> before, List<BenchResult> after) {
        Optional<Double> b = otherShare(before);
        Optional<Double> a = otherShare(after);
        return b.isPresent() && a.isPresent() ? Optional.of(new MachineDrift(b.get(), a.get())) : Optional.empty();
    }

    private static Optional<Double> otherShare(List<BenchResult> rounds) {
        if (rounds.isEmpty()) {
            return Optional.empty();
        }
        double sum = 0;
        for (BenchResult r : rounds) {
            Optional<ClientCpu> cpu = r.clientCpu();
            if (cpu.isEmpty() || !Double.isFinite(cpu.get().machineShare())) {
                return Optional.empty();
            }
            sum += Math.max(0, cpu.get().machineShare() - cpu.get().processShare());
        }
        return Optional.of(sum / rounds.size());
    }

    /** Points of the machine by which other work rose from before to after; negative when it fell. */
    public double rise() {
        return after - before;
    }

    public boolean large() {
        return Math.abs(rise()) >= POINTS;
    }

    /**
     * Whether this drift alone could make {@code metric} move as {@code ratio} says: throughput
     * down when other work rose, up when it fell; a latency either way.
     */
    public boolean explains(Metric metric, double ratio) {
        if (!large() || !Double.isFinite(ratio) || ratio == 1) {
            return false;
        }
        if (!metric.higherIsBetter()) {
            return true;
        }
        return ratio < 1 == rise() > 0;
    }

    /** "this machine's CPU outside fleetfix went from 8 % before to 46 % after". */
    public String describe() {
        return String.format(
                Locale.ROOT,
                "this machine's CPU busy outside fleetfix went from %.0f %% during the before rounds to %.0f %% during"
                        + " the after rounds",
                before * 100,
                after * 100);
    }
}
