package dev.fleetfix.health;

import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * What a health gate found on one host.
 *
 * @param gate the gate's name ({@code ping}, {@code replica_synced}, {@code all_of})
 * @param passed whether it passed within its timeout
 * @param detail the last observation ("role:slave link up offset 1200/1200") or why it failed
 * @param elapsed how long the gate waited
 * @param parts results of the gates a composite ran, in order
 * @param forecast in check mode: the gate was looked at once and not awaited, and this says what
 *     apply would do about it ("apply waits up to 60s for it after the restart"); {@code passed}
 *     and {@code detail} are then what was seen now. Empty when the gate was awaited.
 */
public record GateResult(
        String gate,
        boolean passed,
        String detail,
        Duration elapsed,
        List<GateResult> parts,
        Optional<String> forecast) {
    public GateResult {
        Objects.requireNonNull(gate, "gate");
        Objects.requireNonNull(detail, "detail");
        Objects.requireNonNull(elapsed, "elapsed");
        parts = List.copyOf(parts);
        Objects.requireNonNull(forecast, "forecast");
    }

    /** An awaited gate's result. */
    public GateResult(String gate, boolean passed, String detail, Duration elapsed, List<GateResult> parts) {
        this(gate, passed, detail, elapsed, parts, Optional.empty());
    }

    /** The same result, marked as a check-mode look with what apply would do. */
    public GateResult withForecast(String whatApplyWouldDo) {
        return new GateResult(gate, passed, detail, elapsed, parts, Optional.of(whatApplyWouldDo));
    }

    /** True when this is a check-mode look rather than an awaited gate. */
    public boolean predicted() {
        return forecast.isPresent();
    }

    public static GateResult passed(String gate, String detail, Duration elapsed) {
        return new GateResult(gate, true, detail, elapsed, List.of());
    }

    public static GateResult failed(String gate, String detail, Duration elapsed) {
        return new GateResult(gate, false, detail, elapsed, List.of());
    }
}
