package dev.fleetfix.bench.redisbenchmark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.fleetfix.bench.BenchResult;
import dev.fleetfix.bench.FakeTarget;
import dev.fleetfix.bench.Metric;
import dev.fleetfix.bench.plan.RedisBenchmarkSpec;
import dev.fleetfix.bench.plan.SafetyPolicy;
import dev.fleetfix.fake.RecordingShell;
import dev.fleetfix.redis.RedisVersion;
import dev.fleetfix.redis.load.BenchmarkException;
import dev.fleetfix.redis.load.Operation;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class RedisBenchmarkEngineTest {

    /** Answers each command by the first rule whose text it contains; any other command fails the test. */
    private static RecordingShell shell() {
        return new RecordingShell("redis-1").strict().refusePuts("redis-benchmark writes no file");
    }

    private final RedisBenchmarkEngine engine = new RedisBenchmarkEngine();
    private final RedisBenchmarkSpec spec = RedisBenchmarkSpec.defaults("127.0.0.1", 6379);

    @Test
    void buildsOneQuotedCustomCommandPerTestUnderThePrefix() {
        RedisBenchmarkSpec s = spec.withKeyPrefix("bench it:").withPipeline(16).withThreads(2);

        String set = RedisBenchmarkEngine.commandLine(s, Operation.SET, true);

        assertThat(set)
                .isEqualTo("redis-benchmark -h 127.0.0.1 -p 6379 -n 100000 -c 50 -d 3 -P 16 -r 100000 --threads 2 --csv"
                        + " SET 'bench it:str:__rand_int__' xxx");
        assertThat(RedisBenchmarkEngine.commandLine(spec, Operation.INCR, false))
                .endsWith("-r 100000 INCR fleetfix:bench:ctr:__rand_int__");
    }

    @Test
    void readsCsvFromRedis7AndNamesResultsAfterTheTests() {
        RecordingShell shell = shell().answer("--version", 0, Fixtures.read("redis7-version.txt"), "")
                .answer(" SET ", 0, Fixtures.read("redis7-csv-custom-command.csv"), "")
                .answer(" GET ", 0, Fixtures.read("redis7-csv-set-pipelined.csv"), "");

        List<BenchResult> results = engine.run(shell, spec, Optional.empty());

        assertThat(results).extracting(BenchResult::test).containsExactly("SET", "GET");
        assertThat(results.get(1).rps()).isEqualTo(161290.33);
        assertThat(Metric.P99.valueOf(results.get(1))).hasValue(9.119);
        assertThat(shell.commands().get(1).script()).contains("--csv");
        assertThat(shell.commands().get(1).timeout()).isEqualTo(spec.timeout());
    }

    @Test
    void readsTheVerboseDistributionWhenRedisBenchmarkIsTooOldToSayItsVersion() {
        RecordingShell shell = shell().answer(
                        "--version", 1, "", "Unrecognized option or bad number of args for: '--version'")
                .answer(" SET ", 0, Fixtures.read("seed-2.8-thp-always.txt"), "");

        List<BenchResult> results =
                engine.run(shell, spec.withTests(List.of(Operation.SET)), Optional.of(new RedisVersion(2, 8, 19)));

        assertThat(shell.commands().get(1).script()).doesNotContain("--csv");
        assertThat(Metric.MAX.valueOf(results.get(0))).hasValue(169);
        assertThat(results.get(0).test()).isEqualTo("SET");
    }

    @Test
    void usesTheServersVersionWhenRedisBenchmarkGivesNone() {
        RecordingShell shell = shell().answer("--version", 1, "", "")
                .answer(" SET ", 0, Fixtures.read("redis7-csv-custom-command.csv"), "");

        engine.run(shell, spec.withTests(List.of(Operation.SET)), Optional.of(new RedisVersion(6, 2, 6)));

        assertThat(shell.commands().get(1).script()).contains("--csv");
    }

    @Test
    void saysWhenRedisBenchmarkIsMissing() {
        RecordingShell shell = shell().answer("--version", 127, "", "sh: redis-benchmark: not found")
                .answer(" SET ", 127, "", "sh: redis-benchmark: not found");

        assertThatThrownBy(() -> engine.run(shell, spec, Optional.empty()))
                .hasMessage("host redis-1: redis-benchmark is not installed (it comes with the redis-tools or redis"
                        + " package, valkey-benchmark with valkey-tools)");
    }

    @Test
    void aValkeyHostRunsValkeyBenchmarkAndReadsItsCsv() {
        RecordingShell shell = shell().answer("valkey-benchmark --version", 0, "valkey-benchmark 8.1.1", "")
                .answer(
                        " SET ",
                        0,
                        "\"test\",\"rps\",\"avg_latency_ms\",\"min_latency_ms\",\"p50_latency_ms\",\"p95_latency_ms\","
                                + "\"p99_latency_ms\",\"max_latency_ms\"\n"
                                + "\"SET fleetfix:bench:str:__rand_int__ xxx\",\"18018.02\",\"2.464\",\"0.120\",\"0.335\","
                                + "\"9.687\",\"29.743\",\"29.839\"\n",
                        "");

        List<BenchResult> results = engine.run(shell, spec.withTests(List.of(Operation.SET)), Optional.empty(), true);

        assertThat(shell.commands().get(1).script())
                .startsWith("valkey-benchmark -h 127.0.0.1")
                .contains("--csv");
        assertThat(results).singleElement().satisfies(r -> assertThat(r.test()).isEqualTo("SET"));
    }

    @Test
    void aRedisHostWithOnlyValkeyBenchmarkUsesIt() {
        RecordingShell shell = shell().answer("redis-benchmark --version", 127, "", "sh: redis-benchmark: not found")
                .answer("valkey-benchmark --version", 0, "valkey-benchmark 8.1.1", "")
                .answer(" SET ", 0, "\"test\",\"rps\"\n\"SET\",\"1.0\"\n", "");

        assertThat(engine.program(shell, false).name()).isEqualTo("valkey-benchmark");
    }

    @Test
    void reportsServerErrorsThatLeaveNoResult() {
        RecordingShell shell = shell().answer("--version", 0, "redis-benchmark 7.0.15", "")
                .answer(
                        " INCR ",
                        0,
                        Fixtures.read("redis7-q-error-not-integer.txt"),
                        "Error from server: ERR value is not an integer or out of range");

        assertThatThrownBy(() -> engine.run(shell, spec.withTests(List.of(Operation.INCR)), Optional.empty()))
                .hasMessageStartingWith("host redis-1: redis-benchmark INCR: ")
                .hasMessageEndingWith("stderr: Error from server: ERR value is not an integer or out of range");
    }

    /**
     * Regression: nothing watched evicted_keys. The SET test made Redis evict keys: the run fails
     * before the GET test, and its keys are deleted.
     */
    @Test
    void anEvictionDuringATestFailsTheRunBeforeTheNextAndItsKeysAreDeleted() {
        FakeTarget target = new FakeTarget(new java.util.concurrent.atomic.AtomicLong(), n -> 0);
        target.keys.add("session:1");
        RecordingShell shell = shell().answer("--version", 0, Fixtures.read("redis7-version.txt"), "")
                .otherwise(command -> {
                    if (command.script().contains(" SET ")) {
                        target.evictedKeys.addAndGet(3);
                        return RecordingShell.ok(Fixtures.read("redis7-csv-custom-command.csv"));
                    }
                    throw new AssertionError("no test after an eviction: " + command.script());
                });

        assertThatThrownBy(() -> engine.run(shell, target, spec, SafetyPolicy.DEFAULT, Optional.empty()))
                .isInstanceOf(BenchmarkException.class)
                .hasMessageStartingWith(
                        "host redis-1: Redis evicted 3 keys during the benchmark (evicted_keys 0 -> 3)");
        assertThat(target.deletes).hasSize(1);
        assertThat(target.keys).containsExactly("session:1");
    }

    @Test
    void refusesThreadsOnOldVersions() {
        RecordingShell shell = shell().answer("--version", 1, "", "");

        assertThatThrownBy(() -> engine.run(shell, spec.withThreads(4), Optional.of(new RedisVersion(5, 0, 7))))
                .hasMessageContaining("--threads needs redis-benchmark 6.0");
    }

    @Test
    void findsVersionsInBothPlaces() {
        assertThat(RedisVersion.find("redis-benchmark 7.0.15")).contains(new RedisVersion(7, 0, 15));
        assertThat(RedisVersion.find(Fixtures.read("redis7-info-server.txt"))).contains(new RedisVersion(7, 0, 15));
        assertThat(new RedisVersion(6, 2, 0).atLeast(6, 2)).isTrue();
        assertThat(new RedisVersion(6, 0, 16).atLeast(6, 2)).isFalse();
    }
}
