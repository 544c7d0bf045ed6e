package dev.fleetfix.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fleetfix.redis.jedis.LocalRedisServer;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import redis.clients.jedis.Jedis;

/** {@code fleetfix bench} against a local redis-server, reached as an inventory host with a local connection. */
class BenchCommandIT {
    private static LocalRedisServer server;

    @TempDir
    Path dir;

    @BeforeAll
    static void startRedis() {
        server = LocalRedisServer.start();
    }

    @AfterAll
    static void stopRedis() {
        server.close();
    }

    private CliRun bench(String... args) throws Exception {
        Path inventory = dir.resolve("inventory.yaml");
        Files.writeString(
                inventory,
                "all:\n  hosts:\n    cache-1:\n      ansible_connection: local\n      redis_host: 127.0.0.1\n"
                        + "      redis_port: " + server.port + "\n");
        String[] full = new String[args.length + 3];
        full[0] = "bench";
        full[1] = "-i";
        full[2] = inventory.toString();
        System.arraycopy(args, 0, full, 3, args.length);
        return CliRun.of(full);
    }

    @Test
    void builtinEnginePrintsEachRoundAndCleansUp() throws Exception {
        try (Jedis jedis = server.client()) {
            jedis.set("user:1", "keep me");

            CliRun run =
                    bench("-n", "3000", "--warmup", "100ms", "-c", "4", "--tests", "set,get,incr", "--rounds", "2");

            assertThat(run.exitCode()).as(run.toString()).isZero();
            assertThat(run.stdout()).as(run.toString()).containsPattern("cache-1\\s+MIX\\s+1\\s+\\d+");
            assertThat(run.stdout()).containsPattern("cache-1\\s+MIX\\s+2\\s+\\d+");
            assertThat(jedis.keys("*")).containsExactly("user:1");
        }
    }

    @Test
    void aPrefixThatHoldsTheUsersKeysIsRefusedAndForcedRunsDeleteOnlyTheirOwnKeys() throws Exception {
        try (Jedis jedis = server.client()) {
            jedis.flushAll();
            jedis.set("user:1", "alice");
            jedis.set("user:2", "bob");

            for (String engine : new String[] {"builtin", "redis-benchmark"}) {
                CliRun refused = bench("--engine", engine, "--prefix", "user:", "-n", "2000", "--tests", "set,get");
                assertThat(refused.stdout())
                        .as(refused.toString())
                        .contains("cache-1: skipped: host cache-1: refusing to benchmark: 2 keys already exist under"
                                + " the prefix 'user:'");
                assertThat(jedis.keys("*")).containsExactlyInAnyOrder("user:1", "user:2");

                CliRun forced =
                        bench("--engine", engine, "--prefix", "user:", "-n", "2000", "--tests", "set,get", "--force");
                assertThat(forced.exitCode()).as(forced.toString()).isZero();
                assertThat(forced.stdout()).as(forced.toString()).doesNotContain("skipped");
                assertThat(jedis.keys("*")).as(engine).containsExactlyInAnyOrder("user:1", "user:2");
                assertThat(jedis.get("user:1")).isEqualTo("alice");
            }
        }
    }

    @Test
    void jsonIsTheBenchmarkSectionOfReportJson() throws Exception {
        CliRun run = bench("--json", "--duration", "1s", "--warmup", "100ms", "-c", "2", "--rounds", "2");

        assertThat(run.exitCode()).as(run.toString()).isZero();
        com.fasterxml.jackson.databind.JsonNode json =
                new com.fasterxml.jackson.databind.ObjectMapper().readTree(run.stdout());
        // the sweep fields are added (empty without a sweep), as the report schema adds fields
        assertThat(json.fieldNames())
                .toIterable()
                .containsExactly("schema_version", "runs", "comparisons", "fleet", "sweep", "sweep_comparisons");
        assertThat(json.get("sweep")).isEmpty();
        assertThat(json.get("runs")).hasSize(2);
        com.fasterxml.jackson.databind.JsonNode test =
                json.get("runs").get(0).get("tests").get(0);
        assertThat(json.get("runs").get(0).get("host").asText()).isEqualTo("cache-1");
        assertThat(json.get("runs").get(0).get("phase").asText()).isEqualTo("before");
        assertThat(test.get("percentiles").has("p99")).isTrue();
        assertThat(test.get("windows").size()).as(run.stdout()).isGreaterThanOrEqualTo(2);
        assertThat(test.get("client_cpu").get("process_share").asDouble()).isBetween(0.0, 1.0);
    }

    @Test
    void redisBenchmarkEngineRunsOnTheHost() throws Exception {
        try (Jedis jedis = server.client()) {
            CliRun run = bench("--engine", "redis-benchmark", "-n", "2000", "-c", "4", "--tests", "set,lpush");

            assertThat(run.exitCode()).as(run.toString()).isZero();
            assertThat(run.stdout()).as(run.toString()).containsPattern("cache-1\\s+SET\\s+1");
            assertThat(run.stdout()).containsPattern("cache-1\\s+LPUSH\\s+1");
            assertThat(jedis.keys("fleetfix:bench:*")).isEmpty();
        }
    }

    @Test
    void forkUnderLoadProfileRuns() throws Exception {
        CliRun run = bench(
                "--profile",
                "fork-under-load",
                "--duration",
                "2s",
                "--warmup",
                "100ms",
                "-c",
                "4",
                "--bgsave-interval",
                "300ms");

        assertThat(run.exitCode()).as(run.toString()).isZero();
        assertThat(run.stdout()).as(run.toString()).containsPattern("cache-1\\s+FORK-UNDER-LOAD\\s+1");
    }

    @Test
    void badOptionsAreUsageErrors() throws Exception {
        CliRun run = bench("--engine", "redis-benchmark", "--profile", "fork-under-load");

        assertThat(run.exitCode()).as(run.toString()).isEqualTo(ExitCode.USAGE);
        // one plan builder for the command line and the playbook: one message, naming the option
        assertThat(run.stderr()).contains("--profile: fork-under-load needs engine builtin");
    }
}
