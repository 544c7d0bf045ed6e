package dev.fleetfix.rollout.gate;

import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * What a health gate found on one host.
 *
 * @param gate the gate's name ({@code ping}, {@code replica_synced}, {@code all_of})
 * @param passed whether it passed within its timeout
 * @param detail the last observation ("role:slave link up offset 1200/1200") or why it failed
 * @param elapsed how long the gate waited
 * @param parts results of the gates a composite ran, in order
 */
public record GateResult(String gate, boolean passed, String detail, Duration elapsed, List<GateResult> parts) {
    public GateResult {
        Objects.requireNonNull(gate, "gate");
        Objects.requireNonNull(detail, "detail");
        Objects.requireNonNull(elapsed, "elapsed");
        parts = List.copyOf(parts);
    }

    public static GateResult passed(String gate, String detail, Duration elapsed) {
        return new GateResult(gate, true, detail, elapsed, List.of());
    }

    public static GateResult failed(String gate, String detail, Duration elapsed) {
        return new GateResult(gate, false, detail, elapsed, List.of());
    }
}
