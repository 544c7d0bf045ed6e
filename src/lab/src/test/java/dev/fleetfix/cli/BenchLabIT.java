package dev.fleetfix.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.fleetfix.lab.LabCli;
import dev.fleetfix.lab.LabFleetExtension;
import dev.fleetfix.lab.LabHost;
import dev.fleetfix.lab.LabHostSpec;
import dev.fleetfix.lab.RunsAlone;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@code fleetfix bench} on a lab host, both engines: the builtin load generator from this machine,
 * and redis-benchmark run on the host over SSH. Either way the user's keys stay and the benchmark's
 * keys go.
 */
@RunsAlone
class BenchLabIT {
    @RegisterExtension
    static final LabFleetExtension fleet = LabFleetExtension.of(LabHostSpec.named("lab-1"));

    @BeforeAll
    static void prepareHosts() {
        redisCli("SET user:1 'keep me'");
    }

    private static String redisCli(String args) {
        return LabCli.redis(fleet.get(), "lab-1", args).stdout().strip();
    }

    private static CliRun bench(String... args) {
        String[] full = new String[args.length + 3];
        full[0] = "bench";
        full[1] = "-i";
        full[2] = fleet.inventoryFile().toString();
        System.arraycopy(args, 0, full, 3, args.length);
        return CliRun.of(full);
    }

    @Test
    void redisBenchmarkRunsOnTheHostOverSsh() {
        CliRun run =
                bench("--engine", "redis-benchmark", "-n", "5000", "-c", "5", "--tests", "set,get", "--rounds", "2");

        assertThat(run.exitCode()).as(run.toString()).isZero();
        assertThat(run.stdout()).as(run.toString()).containsPattern("lab-1\\s+SET\\s+1\\s+\\d");
        assertThat(run.stdout()).as(run.toString()).containsPattern("lab-1\\s+GET\\s+2\\s+\\d");
        assertThat(redisCli("--scan --pattern 'fleetfix:bench:*'")).isEmpty();
        assertThat(redisCli("GET user:1")).isEqualTo("keep me");
    }

    @Test
    void builtinEngineLoadsTheHostFromThisMachine() {
        CliRun run = bench("-n", "5000", "--warmup", "100ms", "-c", "4", "--tests", "set,get,lpush");

        assertThat(run.exitCode()).as(run.toString()).isZero();
        assertThat(run.stdout()).as(run.toString()).containsPattern("lab-1\\s+MIX\\s+1\\s+\\d");
        assertThat(redisCli("--scan --pattern 'fleetfix:bench:*'")).isEmpty();
        assertThat(redisCli("GET user:1")).isEqualTo("keep me");
    }

    /**
     * Redis's own figures come with the synthetic ones, at no extra load: with the latency monitor
     * on and 100 MB to copy, the profile's BGSAVEs leave a fork in LATENCY HISTORY, and the Redis
     * process's AnonHugePages (read as root over SSH) is a number, not a guess.
     */
    @Test
    void jsonCarriesRedisOwnForkHugePageAndFragmentationFigures() throws Exception {
        LabHost host = fleet.host("lab-1");
        fleet.rootExec(
                "lab-1",
                "redis-benchmark -h " + host.address() + " -p " + host.redisPort()
                        + " -t set -n 100000 -r 100000 -d 1000 -q >/dev/null");
        assertThat(redisCli("CONFIG SET latency-monitor-threshold 1")).isEqualTo("OK");
        try {
            CliRun run = bench(
                    "--json",
                    "--profile",
                    "fork-under-load",
                    "--duration",
                    "3s",
                    "--warmup",
                    "100ms",
                    "-c",
                    "4",
                    "--bgsave-interval",
                    "1s",
                    "--rounds",
                    "1");

            assertThat(run.exitCode()).as(run.toString()).isZero();
            JsonNode last =
                    new ObjectMapper().readTree(run.stdout()).get("runs").get(0);
            System.out.println("redis figures: " + last.get("redis_evidence") + " anon_huge_pages_kb="
                    + last.get("redis_anon_huge_pages_kb") + " fork history=" + last.get("redis_fork_history")
                    + " latest=" + last.get("redis_latency_latest") + " unread=" + last.get("redis_unread"));
            JsonNode evidence = last.get("redis_evidence");
            assertThat(evidence.get("latest_fork_usec").asLong())
                    .as(run.stdout())
                    .isPositive();
            assertThat(evidence.get("rdb_last_cow_size").asLong())
                    .as(run.stdout())
                    .isNotNegative();
            assertThat(evidence.get("mem_fragmentation_ratio").asDouble())
                    .as(run.stdout())
                    .isBetween(0.1, 50.0);
            assertThat(evidence.get("latency_monitor_threshold").asText()).isEqualTo("1");
            assertThat(last.get("redis_unread")).as(run.stdout()).isEmpty();
            // 100 MB of keys: the process is at least that big, and the huge pages it holds are a
            // number between none and all of it
            assertThat(last.get("redis_anon_huge_pages_kb").isIntegralNumber())
                    .as(run.stdout())
                    .isTrue();
            assertThat(last.get("redis_anon_huge_pages_kb").asLong()).isBetween(0L, 4_000_000L);
            JsonNode forks = last.get("redis_fork_history");
            assertThat(forks).as(run.stdout()).isNotEmpty();
            for (JsonNode spike : forks) {
                assertThat(spike.get("ms").asLong()).isGreaterThanOrEqualTo(1);
                assertThat(spike.get("at").asLong()).isGreaterThan(1_700_000_000L);
            }
            assertThat(last.get("redis_latency_latest").findValuesAsText("event"))
                    .contains("fork");
        } finally {
            redisCli("CONFIG SET latency-monitor-threshold 0");
            redisCli("--scan --pattern 'key:*' | xargs -r -n 1000 redis-cli -h " + host.address() + " -p "
                    + host.redisPort() + " UNLINK > /dev/null");
        }
    }
}
