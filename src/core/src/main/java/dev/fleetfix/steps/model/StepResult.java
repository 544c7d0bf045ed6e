package dev.fleetfix.steps.model;

import dev.fleetfix.bench.plan.BenchRun;
import dev.fleetfix.health.GateResult;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What one step did on one host.
 *
 * @param status ok, changed, skipped, failed or unreachable
 * @param message one line for people ("enabled always → never"), or the failure's reason
 * @param changes what changed, before → after
 * @param diffs edited files with their diffs (always computed; reporters show them with --diff)
 * @param gates health gate results (wait_healthy)
 * @param facts facts the step learnt or set ({@code thp.enabled}); merged into the host's facts
 * @param benchmarks benchmark rounds the step measured (the engine emits one event per round)
 * @param predicted check mode: the state the step's skipped action would have produced where it
 *     differs from what is observed ({@link Predicted}); merged into the host's predicted state
 */
public record StepResult(
        StepStatus status,
        String message,
        List<Change> changes,
        List<FileDiff> diffs,
        List<GateResult> gates,
        Map<String, String> facts,
        List<BenchRun> benchmarks,
        Map<String, String> predicted) {

    /** The note a step adds to its message when check mode skipped its action. */
    public static final String CHECK_NOTE = "check mode: nothing done";

    public StepResult {
        Objects.requireNonNull(status, "status");
        Objects.requireNonNull(message, "message");
        changes = List.copyOf(changes);
        diffs = List.copyOf(diffs);
        gates = List.copyOf(gates);
        facts = Collections.unmodifiableMap(new LinkedHashMap<>(facts));
        benchmarks = List.copyOf(benchmarks);
        predicted = Collections.unmodifiableMap(new LinkedHashMap<>(predicted));
    }

    /** A result that predicts nothing. */
    public StepResult(
            StepStatus status,
            String message,
            List<Change> changes,
            List<FileDiff> diffs,
            List<GateResult> gates,
            Map<String, String> facts,
            List<BenchRun> benchmarks) {
        this(status, message, changes, diffs, gates, facts, benchmarks, Map.of());
    }

    /** A result that measured no benchmark. */
    public StepResult(
            StepStatus status,
            String message,
            List<Change> changes,
            List<FileDiff> diffs,
            List<GateResult> gates,
            Map<String, String> facts) {
        this(status, message, changes, diffs, gates, facts, List.of());
    }

    public static StepResult ok(String message) {
        return new StepResult(StepStatus.OK, message, List.of(), List.of(), List.of(), Map.of());
    }

    public static StepResult skipped(String message) {
        return new StepResult(StepStatus.SKIPPED, message, List.of(), List.of(), List.of(), Map.of());
    }

    public static StepResult failed(String message) {
        return new StepResult(StepStatus.FAILED, message, List.of(), List.of(), List.of(), Map.of());
    }

    public static StepResult unreachable(String message) {
        return new StepResult(StepStatus.UNREACHABLE, message, List.of(), List.of(), List.of(), Map.of());
    }

    public StepResult withFacts(Map<String, String> more) {
        Map<String, String> all = new LinkedHashMap<>(facts);
        all.putAll(more);
        return new StepResult(status, message, changes, diffs, gates, all, benchmarks, predicted);
    }

    public StepResult withBenchmarks(List<BenchRun> runs) {
        return new StepResult(status, message, changes, diffs, gates, facts, runs, predicted);
    }

    /** The same result, predicting also {@code more} (check mode). */
    public StepResult withPredicted(Map<String, String> more) {
        Map<String, String> all = new LinkedHashMap<>(predicted);
        all.putAll(more);
        return new StepResult(status, message, changes, diffs, gates, facts, benchmarks, all);
    }

    /** Collects changes and diffs; the status is CHANGED when anything was added, else OK. */
    public static final class Builder {
        private final List<Change> changes = new ArrayList<>();
        private final List<FileDiff> diffs = new ArrayList<>();
        private final Map<String, String> facts = new LinkedHashMap<>();
        private final List<String> notes = new ArrayList<>();

        public Builder change(String what, String before, String after) {
            changes.add(new Change(what, before, after));
            return this;
        }

        public Builder file(FileEdit edit) {
            if (edit.changed()) {
                changes.add(
                        new Change(edit.path(), edit.before().isPresent() ? "old content" : "absent", "new content"));
                diffs.add(new FileDiff(edit.path(), edit.diff(), edit.backup().orElse("")));
            }
            return this;
        }

        public Builder fact(String key, String value) {
            facts.put(key, value);
            return this;
        }

        public Builder note(String note) {
            notes.add(note);
            return this;
        }

        public boolean changed() {
            return !changes.isEmpty();
        }

        public StepResult build() {
            String message = notes.isEmpty()
                    ? changes.stream()
                            .map(c -> c.what() + " " + c.before() + " → " + c.after())
                            .reduce((a, b) -> a + ", " + b)
                            .orElse("no change")
                    : String.join("; ", notes);
            return new StepResult(
                    changed() ? StepStatus.CHANGED : StepStatus.OK, message, changes, diffs, List.of(), facts);
        }
    }
}
