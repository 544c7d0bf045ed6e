package dev.fleetfix.rollout.journal;

import com.fasterxml.jackson.annotation.JsonAutoDetect;
import com.fasterxml.jackson.annotation.PropertyAccessor;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.datatype.jdk8.Jdk8Module;
import dev.fleetfix.Counts;
import dev.fleetfix.bench.Phase;
import dev.fleetfix.bench.plan.BenchRun;
import dev.fleetfix.steps.model.StepResult;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * A {@code before} benchmark step as the run journal keeps it: its rounds (with calibration and control rounds) and
 * the facts it set ({@code benchmark.NAME.profile}, {@code benchmark.NAME.settings}). A resumed run replays it on
 * the host it was measured on instead of measuring again: by then the host may already have been changed, and a
 * second "before" measured after the change would compare the change with itself. The {@code after} step then
 * compares with the journaled side, and the step's message says where it came from.
 *
 * @param at when the step ended, as journaled
 * @param run the run that measured it, when the journal names it
 * @param play the play
 * @param host the host measured
 * @param index the step's 1-based index in the play
 * @param step the step's name
 * @param type the step's type ({@code benchmark})
 * @param facts the facts the step set
 * @param runs the step's rounds
 */
public record JournaledBenchmark(
        String at,
        Optional<String> run,
        String play,
        String host,
        int index,
        String step,
        String type,
        Map<String, String> facts,
        List<BenchRun> runs) {
    // The benchmark's records as they are: their fields, through their canonical constructors, so that the journal
    // keeps every figure the after side is compared on (windows, histograms, evidence), and no derived getter.
    private static final ObjectMapper RUNS = JsonMapper.builder()
            .addModule(new Jdk8Module())
            .visibility(PropertyAccessor.ALL, JsonAutoDetect.Visibility.NONE)
            .visibility(PropertyAccessor.FIELD, JsonAutoDetect.Visibility.ANY)
            .build();

    public JournaledBenchmark {
        Objects.requireNonNull(at, "at");
        Objects.requireNonNull(run, "run");
        Objects.requireNonNull(play, "play");
        Objects.requireNonNull(host, "host");
        Objects.requireNonNull(step, "step");
        Objects.requireNonNull(type, "type");
        facts = Map.copyOf(facts);
        runs = List.copyOf(runs);
    }

    /** The key a resumed run finds it by: the same play, host, step index, name and type. */
    public String key() {
        return key(play, host, index, step, type);
    }

    public static String key(String play, String host, int index, String step, String type) {
        return RunControl.key(play, host) + "\n" + index + "\n" + step + "\n" + type;
    }

    /** Whether a step's rounds are a before side: rounds measured before the change, and none after it. */
    static boolean isBeforeSide(List<BenchRun> runs) {
        return runs.stream().anyMatch(r -> r.phase() == Phase.BEFORE)
                && runs.stream().noneMatch(r -> r.phase() == Phase.AFTER || r.phase() == Phase.CONTROL_AFTER);
    }

    static JsonNode toJson(List<BenchRun> runs) {
        return RUNS.valueToTree(runs);
    }

    /**
     * The journal's {@code benchmark_before} line; empty when it lacks a field or its rounds no longer read (a
     * journal of another fleetfix version): the after side then has nothing to compare with, as without a journal.
     */
    static Optional<JournaledBenchmark> fromJournal(JournalReader.Line line, String run) {
        if (line.play() == null
                || line.host() == null
                || line.index() == null
                || line.step() == null
                || line.type() == null
                || line.runs() == null) {
            return Optional.empty();
        }
        try {
            List<BenchRun> runs = RUNS.convertValue(line.runs(), new TypeReference<List<BenchRun>>() {});
            return Optional.of(new JournaledBenchmark(
                    line.at() == null ? "?" : line.at(),
                    Optional.ofNullable(run),
                    line.play(),
                    line.host(),
                    line.index(),
                    line.step(),
                    line.type(),
                    line.facts() == null ? Map.of() : line.facts(),
                    runs));
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }

    /** The step's result again, with its rounds and facts, saying that it comes from the journal. */
    public StepResult asResult() {
        long rounds = runs.stream().filter(r -> r.phase() == Phase.BEFORE).count();
        return StepResult.ok("before side from the run journal, measured at " + at
                        + run.map(r -> " by run " + r).orElse("") + " (" + Counts.of(rounds, "round")
                        + "); not measured again on the resumed host")
                .withFacts(facts)
                .withBenchmarks(runs);
    }
}
