package dev.fleetfix.redis.jedis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.fleetfix.bench.BenchResult;
import dev.fleetfix.bench.Metric;
import dev.fleetfix.bench.plan.RedisBenchmarkSpec;
import dev.fleetfix.bench.plan.SafetyPolicy;
import dev.fleetfix.bench.redisbenchmark.RedisBenchmarkEngine;
import dev.fleetfix.fake.RecordingShell;
import dev.fleetfix.fake.TestHosts;
import dev.fleetfix.redis.load.BenchmarkRefusedException;
import dev.fleetfix.redis.load.Operation;
import dev.fleetfix.transport.local.LocalShell;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.Jedis;

/** The redis-benchmark engine with the real redis-benchmark against a real redis-server. */
class RedisBenchmarkEngineIT {

    /** Runs commands on this machine with the local transport, recording them. */
    private static RecordingShell localShell() {
        return RecordingShell.around(new LocalShell(TestHosts.local("localhost", false)));
    }

    @Test
    void runsEveryTestOnPrefixedKeysAndReadsItsCsv() {
        try (LocalRedisServer server = LocalRedisServer.start();
                Jedis jedis = server.client()) {
            jedis.set("user:1", "keep me");
            RecordingShell shell = localShell();
            RedisBenchmarkSpec spec = RedisBenchmarkSpec.defaults("127.0.0.1", server.port)
                    .withTests(List.of(Operation.SET, Operation.GET, Operation.INCR, Operation.LPUSH))
                    .withRequests(5000)
                    .withClients(10)
                    .withPipeline(4)
                    .withKeyPrefix("fleetfix:it bench:");

            List<BenchResult> results = new RedisBenchmarkEngine().run(shell, spec, Optional.empty());

            assertThat(results).extracting(BenchResult::test).containsExactly("SET", "GET", "INCR", "LPUSH");
            assertThat(results).allSatisfy(r -> {
                assertThat(r.rps()).isPositive();
                assertThat(Metric.P50.valueOf(r).orElseThrow())
                        .isLessThanOrEqualTo(Metric.P99.valueOf(r).orElseThrow());
                assertThat(Metric.P99.valueOf(r).orElseThrow())
                        .isLessThanOrEqualTo(Metric.MAX.valueOf(r).orElseThrow());
            });
            assertThat(shell.scripts()).anySatisfy(s -> assertThat(s).contains("--csv"));
            assertThat(jedis.keys("*")).contains("user:1").allSatisfy(k -> assertThat(k)
                    .matches("user:1|fleetfix:it bench:(str|ctr|list):\\d+"));
            String aList = jedis.keys("fleetfix:it bench:list:*").iterator().next();
            assertThat(jedis.type(aList)).isEqualTo("list");
        }
    }

    @Test
    void asAStepItChecksSafetyFirstAndDeletesItsKeysAfter() {
        try (LocalRedisServer server = LocalRedisServer.start();
                Jedis jedis = server.client();
                JedisBenchTarget target = JedisBenchTarget.connect(
                        "localhost", server.endpoint(), Optional.empty(), Duration.ofSeconds(5))) {
            jedis.set("user:1", "keep me");
            RedisBenchmarkSpec spec = RedisBenchmarkSpec.defaults("127.0.0.1", server.port)
                    .withRequests(2000)
                    .withClients(4);

            List<BenchResult> results =
                    new RedisBenchmarkEngine().run(localShell(), target, spec, SafetyPolicy.DEFAULT, Optional.empty());

            assertThat(results).extracting(BenchResult::test).containsExactly("SET", "GET");
            assertThat(jedis.keys("*")).containsExactly("user:1");

            long used = Long.parseLong(target.info("memory").get("used_memory"));
            jedis.configSet("maxmemory", Long.toString(used + used / 20));
            jedis.configSet("maxmemory-policy", "allkeys-lru");
            RecordingShell untouched = localShell();
            assertThatThrownBy(() -> new RedisBenchmarkEngine()
                            .run(untouched, target, spec, SafetyPolicy.DEFAULT, Optional.empty()))
                    .isInstanceOf(BenchmarkRefusedException.class);
            assertThat(untouched.scripts()).isEmpty();
        }
    }
}
