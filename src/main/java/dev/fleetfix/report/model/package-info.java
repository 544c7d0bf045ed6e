/**
 * The fleet report as {@code report.json} stores it (schema version {@value
 * dev.fleetfix.report.model.FleetReport#SCHEMA_VERSION}). Field names are written in snake_case
 * ({@code schema_version}, {@code elapsed_ms}) and are stable: a field is added, never renamed,
 * within one schema version. Times are ISO-8601 instants, durations whole milliseconds, latencies
 * milliseconds. Absent values are {@code null} (e.g. a percentile the source did not report).
 */
package dev.fleetfix.report.model;
