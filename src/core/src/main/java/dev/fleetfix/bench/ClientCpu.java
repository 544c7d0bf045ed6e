package dev.fleetfix.bench;

/**
 * How busy this machine (the control node, where the builtin generator runs) was during a round.
 * When it is saturated, latencies include the client's own queueing: the round measures this
 * machine as much as the host.
 *
 * @param processShare this JVM's CPU time over the round's wall time and all cores, 0..1
 * @param machineShare the whole machine's busy CPU over the round, 0..1; NaN when unknown
 */
public record ClientCpu(double processShare, double machineShare) {
    /** At or above this busy share the machine had no CPU to spare for the generator. */
    public static final double SATURATED = 0.9;

    public ClientCpu {
        if (!(processShare >= 0)) {
            throw new IllegalArgumentException("processShare must be >= 0, was " + processShare);
        }
    }

    public boolean saturated() {
        return processShare >= SATURATED || machineShare >= SATURATED;
    }
}
