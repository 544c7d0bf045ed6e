package dev.fleetfix.steps.restart;

import dev.fleetfix.steps.model.StepResult;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The step line of one restart as it goes: its notes in order, the facts later steps read, and the changes made. A
 * failure joins the notes so far with what failed; success lists the changes and notes.
 */
final class RestartReport {
    private final List<String> notes;
    private final StepResult.Builder result = new StepResult.Builder();
    private Map<String, String> facts = Map.of();

    RestartReport(List<String> first) {
        this.notes = new ArrayList<>(first);
    }

    void note(String note) {
        notes.add(note);
    }

    /** Notes why the host's {@link PendingRestart} record was kept, when it was. */
    void kept(Optional<String> why) {
        why.ifPresent(kept -> notes.add(PendingRestart.PATH + " kept: " + kept));
    }

    /** The facts every result from now on carries; a successful one has them as its own. */
    void facts(Map<String, String> facts) {
        this.facts = facts;
        facts.forEach(result::fact);
    }

    void change(String what, String before, String after) {
        result.change(what, before, after);
    }

    /** Failed: the notes so far, then {@code message}. */
    StepResult failed(String message) {
        return StepResult.failed(String.join("; ", notes) + "; " + message).withFacts(facts);
    }

    /** Failed, the last note saying why. */
    StepResult failed() {
        return StepResult.failed(String.join("; ", notes)).withFacts(facts);
    }

    StepResult skipped() {
        return StepResult.skipped(String.join("; ", notes)).withFacts(facts);
    }

    /** Done: the changes made and the notes. */
    StepResult done() {
        notes.forEach(result::note);
        return result.build();
    }
}
