package dev.fleetfix.report.model;

/**
 * One entry of Redis's LATENCY HISTORY.
 *
 * @param at Unix seconds
 * @param ms the spike, milliseconds
 */
public record LatencySpikeReport(long at, long ms) {}
