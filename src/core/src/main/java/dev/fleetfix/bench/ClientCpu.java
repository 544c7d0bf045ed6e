package dev.fleetfix.bench;

/**
 * How busy this machine (the control node, where the builtin generator runs) was during a round.
 * When it is saturated, latencies include the client's own queueing: the round measures this
 * machine as much as the host.
 *
 * @param processShare this JVM's CPU time over the round's wall time and all cores, 0..1
 * @param machineShare the whole machine's busy CPU over the round, 0..1; NaN when unknown
 * @param waitShare of the time this JVM's threads were ready to run during the round, the share they waited for a
 *     core (the scheduler's run delay, {@code /proc/self/task/TID/schedstat}), 0..1; NaN when unknown. It
 *     saturates too, so read it as a stretch, {@code 1 / (1 - waitShare)}: how many times longer each slice of
 *     CPU took. Unlike {@code machineShare}, that stretch keeps growing when the machine is already saturated and
 *     more work arrives.
 */
public record ClientCpu(double processShare, double machineShare, double waitShare) {
    /** At or above this busy share the machine had no CPU to spare for the generator. */
    public static final double SATURATED = 0.9;

    public ClientCpu {
        if (!(processShare >= 0)) {
            throw new IllegalArgumentException("processShare must be >= 0, was " + processShare);
        }
    }

    /** Without the run-delay figure (a system that does not keep it). */
    public ClientCpu(double processShare, double machineShare) {
        this(processShare, machineShare, Double.NaN);
    }

    public boolean saturated() {
        return processShare >= SATURATED || machineShare >= SATURATED;
    }
}
