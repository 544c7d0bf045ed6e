package dev.fleetfix.report.model;

/** {@code percent} of the requests took at most {@code ms} milliseconds. */
public record LatencyPointReport(double percent, double ms) {}
