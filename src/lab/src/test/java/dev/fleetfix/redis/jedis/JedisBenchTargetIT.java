package dev.fleetfix.redis.jedis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.fleetfix.bench.BenchResult;
import dev.fleetfix.bench.Metric;
import dev.fleetfix.bench.load.BuiltinBenchmark;
import dev.fleetfix.bench.load.LoadGenerator;
import dev.fleetfix.bench.load.LoadResult;
import dev.fleetfix.bench.plan.LoadSpec;
import dev.fleetfix.bench.plan.SafetyPolicy;
import dev.fleetfix.redis.load.BenchmarkRefusedException;
import dev.fleetfix.redis.load.Operation;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.Jedis;

class JedisBenchTargetIT {
    private static LocalRedisServer server;
    private JedisBenchTarget target;
    private Jedis jedis;

    @BeforeAll
    static void startRedis() {
        server = LocalRedisServer.start();
    }

    @AfterAll
    static void stopRedis() {
        server.close();
    }

    @BeforeEach
    void connect() {
        jedis = server.client();
        jedis.flushAll();
        jedis.configSet("maxmemory", "0");
        jedis.configSet("maxmemory-policy", "noeviction");
        jedis.set("user:1", "keep me");
        jedis.lpush("user:list", "a", "b");
        target = JedisBenchTarget.connect("local-redis", server.endpoint(), Optional.empty(), Duration.ofSeconds(5));
    }

    @AfterEach
    void disconnect() {
        target.close();
        jedis.close();
    }

    private static LoadSpec mix() {
        return LoadSpec.builder()
                .connections(4)
                .pipeline(8)
                .keyspace(1000)
                .warmup(Duration.ofMillis(200))
                .requests(20_000)
                .mix(Map.of(Operation.SET, 2, Operation.GET, 2, Operation.INCR, 1, Operation.LPUSH, 1))
                .build();
    }

    @Test
    void runsTheMixAndLeavesOnlyTheUsersKeys() {
        LoadResult load = new BuiltinBenchmark(LoadGenerator.system()).run(target, mix(), SafetyPolicy.DEFAULT);

        BenchResult r = load.result();
        assertThat(r.requests()).hasValue(20_000);
        assertThat(load.errors()).isZero();
        assertThat(r.rps()).isPositive();
        double previous = 0;
        for (Metric m : List.of(Metric.P50, Metric.P90, Metric.P99, Metric.P999, Metric.P9999, Metric.MAX)) {
            double value = m.valueOf(r).orElseThrow();
            assertThat(value).as(m.label()).isGreaterThanOrEqualTo(previous);
            previous = value;
        }
        assertThat(jedis.keys("*")).containsExactlyInAnyOrder("user:1", "user:list");
        assertThat(jedis.get("user:1")).isEqualTo("keep me");
    }

    @Test
    void writesOnlyUnderThePrefix() {
        // no cleanup here, to see what the load itself wrote
        LoadGenerator.system().run(target, mix().withKeyPrefix("fleetfix:it:"));

        List<String> written =
                jedis.keys("*").stream().filter(k -> !k.startsWith("user:")).toList();
        assertThat(written).isNotEmpty().allSatisfy(k -> assertThat(k).startsWith("fleetfix:it:"));
        assertThat(jedis.type("fleetfix:it:list:1").equals("list") || !jedis.exists("fleetfix:it:list:1"))
                .isTrue();

        long deleted = target.deleteByPrefix("fleetfix:it:");

        assertThat(deleted).isEqualTo(written.size());
        assertThat(jedis.dbSize()).isEqualTo(2);
    }

    @Test
    void aGlobInThePrefixMatchesOnlyItself() {
        jedis.set("a*b:1", "x");
        jedis.set("axb:1", "x");

        assertThat(target.deleteByPrefix("a*b:")).isEqualTo(1);

        assertThat(jedis.exists("axb:1")).isTrue();
        assertThat(jedis.exists("a*b:1")).isFalse();
    }

    @Test
    void aPacedLoadKeepsToItsRate() {
        LoadSpec paced = mix().toBuilder()
                .requests(4000)
                .warmup(Duration.ZERO)
                .rate(2000)
                .build();

        LoadResult load = LoadGenerator.system().run(target, paced);

        // the rate is a ceiling: never faster (unpaced, one connection does ten times this). Whether a busy machine
        // keeps up with it is its speed, not the pacer's: LoadGeneratorTest holds the pace itself on a fake clock
        assertThat(load.result().requests()).hasValue(4000);
        assertThat(load.result().rps()).isPositive().isLessThanOrEqualTo(2200);
        assertThat(load.measured()).isGreaterThanOrEqualTo(Duration.ofMillis(1800));
        target.deleteByPrefix(LoadSpec.DEFAULT_PREFIX);
    }

    @Test
    void refusesAnAllkeysLruPrimaryUnlessForcedAndOneWithoutRoomEvenForcedAndWritesNothing() {
        long used = Long.parseLong(target.info("memory").get("used_memory"));
        LoadSpec sets = mix().toBuilder()
                .mix(Map.of(Operation.SET, 1, Operation.GET, 1))
                .build();
        jedis.configSet("maxmemory", Long.toString(used + 512L * 1024 * 1024));
        jedis.configSet("maxmemory-policy", "allkeys-lru");

        assertThatThrownBy(() -> new BuiltinBenchmark(LoadGenerator.system()).run(target, sets, SafetyPolicy.DEFAULT))
                .isInstanceOf(BenchmarkRefusedException.class)
                .hasMessageContaining("maxmemory-policy allkeys-lru would evict user keys")
                .hasMessageContaining("--force");

        jedis.configSet("maxmemory", Long.toString(used + used / 10));
        assertThatThrownBy(() ->
                        new BuiltinBenchmark(LoadGenerator.system()).run(target, sets, SafetyPolicy.DEFAULT.forced()))
                .isInstanceOf(BenchmarkRefusedException.class)
                .hasMessageContaining("host local-redis: refusing to benchmark: the benchmark needs about")
                .hasMessageContaining("maxmemory-policy allkeys-lru evicts any of the users' keys to make room")
                .hasMessageNotContaining("--force");
        assertThat(jedis.keys("*")).containsExactlyInAnyOrder("user:1", "user:list");
    }

    /**
     * Regression: SETs refused with OOM came back as fast replies and were counted as throughput, with
     * no word of the errors. The load itself, without the guard that would refuse it here.
     */
    @Test
    void errorRepliesAreCountedInTheResult() {
        long used = Long.parseLong(target.info("memory").get("used_memory"));
        jedis.configSet("maxmemory", Long.toString(used + 64 * 1024));
        LoadSpec sets = mix().toBuilder()
                .mix(Map.of(Operation.SET, 1))
                .valueSize(1024)
                .keyspace(100_000)
                .warmup(Duration.ZERO)
                .requests(5_000)
                .build();

        LoadResult load = LoadGenerator.system().run(target, sets);

        assertThat(load.errors()).isGreaterThan(4_000);
        assertThat(load.result().errors()).isEqualTo(load.errors());
        assertThat(load.result().requests()).hasValue(5_000);
        jedis.configSet("maxmemory", "0");
        target.deleteByPrefix(LoadSpec.DEFAULT_PREFIX);
    }

    @Test
    void readsInfoAndConfig() throws Exception {
        assertThat(target.info("replication")).containsEntry("role", "master");
        assertThat(target.configGet("dir")).contains(server.dir.toRealPath().toString());
        assertThat(target.configGet("no-such-parameter")).isEmpty();
    }
}
