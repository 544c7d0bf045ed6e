package dev.fleetfix.report.model;

import java.util.List;

/**
 * A health gate's result.
 *
 * @param gate its name ({@code ping}, {@code replica_synced}, {@code all_of})
 * @param detail the last observation, or why it failed
 * @param parts results of the gates a composite ran
 */
public record GateReport(String gate, boolean passed, String detail, long elapsedMs, List<GateReport> parts) {
    public GateReport {
        parts = parts == null ? List.of() : List.copyOf(parts);
    }
}
