package dev.fleetfix.report.model;

/**
 * One event of Redis's LATENCY LATEST.
 *
 * @param event the event's name ({@code fork}, {@code command}, {@code aof-write}...)
 * @param at when its latest spike happened, Unix seconds
 * @param latestMs the latest spike, milliseconds
 * @param maxMs the largest since the monitor was reset or Redis started, milliseconds
 */
public record LatencyEventReport(String event, long at, long latestMs, long maxMs) {}
