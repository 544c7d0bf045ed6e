package dev.fleetfix.report.model;

/**
 * A file a step edited.
 *
 * @param unifiedDiff the edit as a unified diff
 * @param backup the backup made before the edit; empty when none
 */
public record DiffReport(String path, String unifiedDiff, String backup) {}
