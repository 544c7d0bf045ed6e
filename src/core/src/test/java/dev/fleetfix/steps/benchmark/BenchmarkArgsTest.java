package dev.fleetfix.steps.benchmark;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fleetfix.bench.Phase;
import dev.fleetfix.bench.plan.BenchPlan;
import dev.fleetfix.bench.plan.BenchPlanBuilder;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The decisions of {@link BenchmarkArgs}, each a table of its cases; the step's own test reads the messages. */
class BenchmarkArgsTest {

    @ParameterizedTest(name = "profile {0}, engine {1}: the builder gets {2}")
    @CsvSource({
        "plain,           builtin,         plain",
        "fork-under-load, builtin,         fork-under-load",
        "auto,            builtin,         fork-under-load",
        "auto,            redis-benchmark, ''",
        "plain,           redis-benchmark, plain",
    })
    void autoTriesForkUnderLoadButNotWithRedisBenchmark(String profile, String engine, String built) {
        assertThat(BenchmarkArgs.builderProfile(profile, engine))
                .isEqualTo(built.isEmpty() ? Optional.empty() : Optional.of(built));
    }

    @ParameterizedTest(name = "{0} {1} sweep={2}, calibrate={3}: {4}")
    @CsvSource({
        "BEFORE, builtin, false, true,  ''",
        "AFTER,  builtin, false, false, ''",
        "AFTER,  builtin, false, true,  'calibrate: only a before run is measured twice'",
        "BEFORE, builtin, true,  true,  'calibrate: a sweep compares its points with each other'",
        "BEFORE, builtin, true,  false, ''",
    })
    void calibrationFitsABeforeRunThatIsNoSweep(
            Phase phase, String engine, boolean sweep, boolean calibrate, String problem) {
        assertProblem(BenchmarkArgs.calibrationProblem(plan(phase, engine, sweep, 4), calibrate), problem);
    }

    @ParameterizedTest(name = "{0} sweep={1}, {2} rounds, {3} controls: {4}")
    @CsvSource({
        "builtin,         false, 4, 0, ''",
        "builtin,         false, 4, 3, ''",
        "redis-benchmark, false, 8, 2, 'controls: need engine builtin'",
        "builtin,         true,  4, 2, 'controls: a sweep compares its points with each other, not with control hosts'",
        "builtin,         false, 1, 0, 'rounds'",
        // a difference in differences is not held to the plain before/after design
        "builtin,         false, 1, 2, ''",
    })
    void controlsNeedTheBuiltinEngineAndNoSweepAndWithoutThemTheRoundsMustCallAVerdict(
            String engine, boolean sweep, int rounds, int controls, String problem) {
        assertProblem(BenchmarkArgs.controlsProblem(plan(Phase.BEFORE, engine, sweep, rounds), controls), problem);
    }

    /** No problem when {@code problem} is empty, else one that begins with it. */
    private static void assertProblem(Optional<String> found, String problem) {
        if (problem.isEmpty()) {
            assertThat(found).isEmpty();
        } else {
            assertThat(found).hasValueSatisfying(p -> assertThat(p).startsWith(problem));
        }
    }

    private static BenchPlan plan(Phase phase, String engine, boolean sweep, int rounds) {
        return new BenchPlanBuilder()
                .phase(phase)
                .engine(engine)
                .valueSizes(sweep ? List.of(64, 1024) : List.of(64))
                .rounds(rounds)
                .build();
    }
}
