package dev.fleetfix.report.model;

import java.util.List;

/**
 * A health gate's result.
 *
 * @param gate its name ({@code ping}, {@code replica_synced}, {@code all_of})
 * @param detail the last observation, or why it failed
 * @param parts results of the gates a composite ran
 * @param forecast check mode only: the gate was looked at once, not awaited, and this says what
 *     apply would do about it ("apply waits up to 60s once Redis is restarted"); {@code passed}
 *     and {@code detail} are what was seen then. Null when the gate was awaited.
 */
public record GateReport(
        String gate, boolean passed, String detail, long elapsedMs, List<GateReport> parts, String forecast) {
    public GateReport {
        parts = parts == null ? List.of() : List.copyOf(parts);
    }
}
