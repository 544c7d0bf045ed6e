package dev.fleetfix.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fleetfix.Sleeper;
import dev.fleetfix.health.Poll;
import dev.fleetfix.health.WaitListener;
import dev.fleetfix.lab.LabFleetExtension;
import dev.fleetfix.lab.LabHost;
import dev.fleetfix.lab.LabHostSpec;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.Pipeline;

/**
 * A lab host whose Redis is at 75 % of maxmemory with users' keys that carry a TTL, under each
 * eviction policy: a benchmark is refused, or runs without evicting a single key; one that meets an
 * eviction anyway stops at once. Each case sets maxmemory and the policy with CONFIG SET on the one
 * host.
 *
 * <p>It runs beside another lab test: its outcomes are refusals, evictions and error replies, none a figure; the one
 * that waits (an eviction stopping a running benchmark) gives it a minute, and it is one of the tests
 * bench/tests-under-load.sh runs with the machine kept busy.
 */
class BenchEvictionLabIT {
    @RegisterExtension
    static final LabFleetExtension fleet = LabFleetExtension.of(LabHostSpec.named("lab-1"));

    private static final int USER_KEYS = 20_000;

    private static Jedis jedis() {
        LabHost host = fleet.host("lab-1");
        return new Jedis(host.address(), host.redisPort());
    }

    private static CliRun bench(String... args) {
        String[] full = new String[args.length + 3];
        full[0] = "bench";
        full[1] = "-i";
        full[2] = fleet.inventoryFile().toString();
        System.arraycopy(args, 0, full, 3, args.length);
        return CliRun.of(full);
    }

    /** 20,000 session keys of 1 KB with a TTL, and nothing else; no limit until a case sets one. */
    @BeforeEach
    void usersKeys() {
        try (Jedis jedis = jedis()) {
            jedis.configSet("maxmemory", "0");
            jedis.configSet("maxmemory-policy", "noeviction");
            jedis.flushAll();
            Pipeline pipeline = jedis.pipelined();
            String value = "s".repeat(1000);
            for (int i = 0; i < USER_KEYS; i++) {
                pipeline.setex("session:" + i, 3600, value);
            }
            pipeline.sync();
            jedis.configResetStat();
        }
    }

    /** maxmemory set so that used_memory is 75 % of it, under {@code policy}. */
    private static void atThreeQuarters(Jedis jedis, String policy) {
        long used = stat(jedis, "memory", "used_memory");
        jedis.configSet("maxmemory", Long.toString(used * 4 / 3));
        jedis.configSet("maxmemory-policy", policy);
    }

    private static long stat(Jedis jedis, String section, String field) {
        for (String line : jedis.info(section).split("\r?\n")) {
            if (line.startsWith(field + ":")) {
                return Long.parseLong(line.substring(field.length() + 1).strip());
            }
        }
        throw new AssertionError(field + " not in INFO " + section);
    }

    private static void assertNothingEvictedAndNothingLeft(Jedis jedis, String policy) {
        assertThat(stat(jedis, "stats", "evicted_keys")).as(policy).isZero();
        assertThat(jedis.dbSize()).as(policy).isEqualTo(USER_KEYS);
        assertThat(jedis.keys("fleetfix:*")).as(policy).isEmpty();
    }

    /**
     * The command (-d 2048 -r 200000, about 500 MiB of keys) against a quarter of ~30 MiB left is
     * refused, naming what the policy would do; a benchmark whose keys fit runs and evicts nothing
     * (allkeys-* needs --force, as before).
     */
    @ParameterizedTest
    @ValueSource(
            strings = {
                "noeviction",
                "allkeys-lru",
                "volatile-lru",
                "volatile-ttl",
                "allkeys-random",
                "volatile-random",
                "allkeys-lfu",
                "volatile-lfu"
            })
    void refusedOrRunWithoutASingleEviction(String policy) {
        try (Jedis jedis = jedis()) {
            atThreeQuarters(jedis, policy);

            CliRun refused = bench("--duration", "6s", "-d", "2048", "-r", "200000", "--tests", "set", "--force");

            assertThat(refused.exitCode()).as(refused.toString()).isZero();
            assertThat(refused.stdout())
                    .as(refused.toString())
                    .contains("lab-1: skipped: host lab-1: refusing to benchmark: the benchmark needs about")
                    .contains("use a smaller keyspace (-r, keyspace:) or value size (-d, value_size:), or a host with"
                            + " room")
                    .contains(
                            policy.startsWith("volatile-")
                                    ? "maxmemory-policy " + policy + " evicts the users' keys that carry a TTL"
                                    : policy.equals("noeviction")
                                            ? "under maxmemory-policy noeviction, Redis refuses writes with OOM, the"
                                                    + " users' own writes too"
                                            : "maxmemory-policy " + policy + " evicts any of the users' keys");
            assertNothingEvictedAndNothingLeft(jedis, policy);

            CliRun fits = policy.startsWith("allkeys-")
                    ? bench("-n", "3000", "-c", "2", "-d", "64", "-r", "1000", "--tests", "set,get", "--force")
                    : bench("-n", "3000", "-c", "2", "-d", "64", "-r", "1000", "--tests", "set,get");

            assertThat(fits.exitCode()).as(fits.toString()).isZero();
            assertThat(fits.stdout()).as(fits.toString()).containsPattern("lab-1\\s+MIX\\s+1\\s+\\d");
            assertThat(fits.stdout()).as(fits.toString()).doesNotContain("error replies");
            assertNothingEvictedAndNothingLeft(jedis, policy);
        }
    }

    /**
     * An eviction the guard could not foresee (here: maxmemory lowered under the running benchmark, as
     * the users' own growth would) stops the load at once: the run fails naming the eviction, long
     * before its 300 s, and its keys are deleted. (It ran 30 s and had to end within 30 s of its start, the
     * wait for its first keys included: a loaded machine's start-up ate into that.)
     */
    @Test
    void anEvictionDuringTheRunStopsItAndItsKeysGo() throws Exception {
        try (Jedis jedis = jedis()) {
            atThreeQuarters(jedis, "volatile-lru");
            CompletableFuture<CliRun> run = CompletableFuture.supplyAsync(
                    () -> bench("--duration", "300s", "-c", "2", "-d", "64", "-r", "5000", "--tests", "set"));

            // its first keys come within a second or two; on a busy machine, later
            assertThat(benchKeys(jedis, "benchmark keys on lab-1", Duration.ofSeconds(120)))
                    .isEmpty();
            // those first keys may be the fill's or the client warm-up's (at most 8 runs of 1 s), which delete
            // theirs before the measured round: a limit lowered then is refused by the round's own check, before
            // it writes. Lowered once the measured round, 300 s long, is writing.
            Thread.sleep(Duration.ofSeconds(15).toMillis());
            assertThat(benchKeys(jedis, "the measured round's keys on lab-1", Duration.ofSeconds(60)))
                    .isEmpty();
            jedis.configSet("maxmemory", Long.toString(stat(jedis, "memory", "used_memory") - 1024 * 1024));
            // stopped by the eviction, or still running after a minute of its five
            CliRun stopped = run.get(60, TimeUnit.SECONDS);

            assertThat(stopped.exitCode()).as(stopped.toString()).isEqualTo(ExitCode.FINDINGS);
            assertThat(stopped.stdout())
                    .as(stopped.toString())
                    .contains("lab-1: failed: host lab-1: Redis evicted ")
                    .contains("stopped at the first eviction seen");
            jedis.configSet("maxmemory", "0");
            assertThat(jedis.keys("fleetfix:*")).isEmpty();
            assertThat(stat(jedis, "stats", "evicted_keys"))
                    .as("the lowered limit evicted")
                    .isPositive();
        }
    }

    /** Waits until the benchmark's keys are in Redis: empty when they came within {@code timeout}. */
    private static Optional<Poll.TimedOut> benchKeys(Jedis jedis, String what, Duration timeout)
            throws InterruptedException {
        return new Poll(Clock.systemUTC(), Sleeper.system(), Duration.ofMillis(50), WaitListener.none())
                .await(
                        what,
                        timeout,
                        left -> jedis.keys("fleetfix:bench:*").isEmpty() ? Optional.of("none yet") : Optional.empty());
    }

    /**
     * Regression: 69,951 SETs refused with OOM were reported as 8,686 rps with no word of the errors.
     * Any error reply counts alike; here Redis refuses every write with NOREPLICAS (min-replicas-to-write
     * 1 and no replica), which the guard does not foresee: the error replies are printed under their
     * round and written to the JSON, and nothing of the benchmark's is left.
     */
    @Test
    void errorRepliesArePrintedUnderTheirRoundAndInTheJson() throws Exception {
        try (Jedis jedis = jedis()) {
            jedis.configSet("min-replicas-to-write", "1");
            try {
                CliRun json = bench("-n", "2000", "-c", "2", "-d", "64", "-r", "1000", "--tests", "set", "--json");
                CliRun table = bench("-n", "2000", "-c", "2", "-d", "64", "-r", "1000", "--tests", "set");

                assertThat(json.exitCode()).as(json.toString()).isZero();
                com.fasterxml.jackson.databind.JsonNode test = new com.fasterxml.jackson.databind.ObjectMapper()
                        .readTree(json.stdout())
                        .get("runs")
                        .get(0)
                        .get("tests")
                        .get(0);
                assertThat(test.get("requests").asLong()).as(json.toString()).isEqualTo(2000);
                assertThat(test.get("errors").asLong()).as(json.toString()).isEqualTo(2000);
                assertThat(table.stdout())
                        .as(table.toString())
                        .containsPattern("lab-1\\s+SET\\s+1\\s+2,000 error replies of 2,000 requests: the rps above"
                                + " counts them; this round enters no verdict");
            } finally {
                jedis.configSet("min-replicas-to-write", "0");
            }
            assertNothingEvictedAndNothingLeft(jedis, "noeviction");
        }
    }

    /**
     * apply's benchmark step uses the same guard, before it cleans or warms up anything: the issue's
     * load as a playbook step, forced, on a volatile-lru host at 75 %, is skipped with the reason, and
     * nothing is evicted or left.
     */
    @Test
    void applysBenchmarkStepIsRefusedTheSameWayBeforeItWritesAnything(@TempDir Path dir) throws Exception {
        Path playbook = dir.resolve("bench.yaml");
        Files.writeString(
                playbook,
                "- name: benchmark only\n"
                        + "  hosts: all\n"
                        + "  steps:\n"
                        + "    - name: benchmark before\n"
                        + "      benchmark: {name: thp, phase: before, profile: plain, duration: 6s, rounds: 7,"
                        + " keyspace: 200000, value_size: 2048, mix: {set: 1}, force: true}\n");
        try (Jedis jedis = jedis()) {
            atThreeQuarters(jedis, "volatile-lru");

            CliRun run = CliRun.of(
                    Main.commandLine(Adapters.builder()
                            .runsHome(dir.resolve("fleetfix-runs"))
                            .build()),
                    "apply",
                    playbook.toString(),
                    "-i",
                    fleet.inventoryFile().toString(),
                    "--no-color");

            assertThat(run.exitCode()).as(run.toString()).isZero();
            assertThat(run.stdout())
                    .as(run.toString())
                    .contains("refusing to benchmark: the benchmark needs about")
                    .contains("maxmemory-policy volatile-lru evicts the users' keys that carry a TTL");
            assertNothingEvictedAndNothingLeft(jedis, "volatile-lru");
        }
    }
}
