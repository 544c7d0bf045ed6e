package dev.fleetfix.report.model;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One step on one host.
 *
 * @param index 1-based within its play
 * @param status {@code ok}, {@code changed}, {@code skipped}, {@code failed} or {@code unreachable}
 * @param message one line for people, or the failure's reason
 * @param attempts how many times it ran (more than one after transient errors)
 * @param changes what changed (check mode: would change), before → after
 * @param diffs the files edited, with unified diffs
 * @param gates health gate results
 * @param facts facts the step learnt or set
 * @param predicted check mode only: the state the step's skipped action would have produced
 *     ({@code redis}: {@code restarted} or {@code started}; {@code redis.route}: how)
 */
public record StepReport(
        String play,
        int index,
        String name,
        String type,
        String status,
        String message,
        long elapsedMs,
        int attempts,
        List<ChangeReport> changes,
        List<DiffReport> diffs,
        List<GateReport> gates,
        Map<String, String> facts,
        Map<String, String> predicted) {
    public StepReport {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(status, "status");
        message = message == null ? "" : message;
        changes = List.copyOf(changes);
        diffs = List.copyOf(diffs);
        gates = List.copyOf(gates);
        facts = Collections.unmodifiableMap(new LinkedHashMap<>(facts));
        predicted = predicted == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(predicted));
    }
}
