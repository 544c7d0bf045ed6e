package dev.fleetfix.report.model;

/**
 * How busy the control node was while the builtin generator ran a round.
 *
 * @param processShare fleetfix's CPU time over wall time and all cores, 0..1
 * @param machineShare the whole machine's busy share, 0..1; null when unknown
 * @param saturated at or above 0.9 either way: the round's latencies include the client's queueing
 * @param waitShare of the time fleetfix's threads were ready to run, the share they waited for a core, 0..1; null
 *     when unknown (a system without per-thread scheduler statistics, or a file written before it was measured)
 */
public record ClientCpuReport(double processShare, Double machineShare, boolean saturated, Double waitShare) {}
