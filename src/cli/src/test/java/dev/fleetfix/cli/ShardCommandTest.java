package dev.fleetfix.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fleetfix.fake.FakeHost;
import dev.fleetfix.fake.TestClock;
import dev.fleetfix.report.files.ReportJson;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code --shard K/N} and {@code fleetfix inventory --shards N} on fake hosts: r1 and r2 are one group by the inventory
 * ({@code redis_group}), r4 replicates from r3 (as their Redis says), r5 and r6 are alone.
 */
class ShardCommandTest {
    @TempDir
    Path dir;

    private final TestClock clock = new TestClock(Instant.parse("2026-11-28T01:30:00Z"));
    private FakeFleet fleet;
    private Map<String, FakeHost> hosts;
    private Path inventory;
    private Path playbook;

    @BeforeEach
    void fleet() throws Exception {
        fleet = new FakeFleet(dir, clock, "r1", "r2", "r3", "r4", "r5", "r6");
        hosts = fleet.hosts();
        hosts.get("r4").redis().replicaOf("10.0.0.3", 6379, 100, "up");
        inventory = dir.resolve("inventory.yaml");
        Files.writeString(
                inventory,
                """
                all:
                  children:
                    cache:
                      vars: {redis_group: cache}
                      hosts:
                        r1: {ansible_host: 10.0.0.1}
                        r2: {ansible_host: 10.0.0.2}
                    redis:
                      children: {cache: {}}
                      hosts:
                        r3: {ansible_host: 10.0.0.3}
                        r4: {ansible_host: 10.0.0.4}
                        r5: {ansible_host: 10.0.0.5}
                        r6: {ansible_host: 10.0.0.6}
                """);
        playbook = dir.resolve("thp-off.yaml");
        Files.writeString(
                playbook,
                """
                - name: thp off
                  hosts: redis
                  steps:
                    - thp: {}
                """);
    }

    @Test
    void inventoryShardsFromTheInventoryOnlyConnectsToNothingAndSaysSo() {
        CliRun run = fleet.run("inventory", "-i", inventory.toString(), "--shards", "2")
                .expectExit(ExitCode.OK);

        assertThat(run.stdout())
                .isEqualTo(
                        """
                        # 6 hosts in 5 replication groups, cut into 2 shards (sizes differ by at most the largest group, 2)
                        # groups from the inventory only (redis_group, group sentinel): a host it does not group is placed alone; --check asks each host's Redis, as --shard K/N does
                        shard 1/2: 3 hosts
                          r1, r2  (redis_group cache)
                          r5  (alone)
                        shard 2/2: 3 hosts
                          r3  (alone)
                          r4  (alone)
                          r6  (alone)
                        """);
        assertThat(fleet.redisConnections()).isZero();
    }

    @Test
    void inventoryShardsCheckAsksEveryHost() {
        CliRun run = fleet.run("inventory", "-i", inventory.toString(), "--shards", "2", "--check")
                .expectExit(ExitCode.OK);

        assertThat(run.stdout())
                .contains("# 6 hosts in 4 replication groups, cut into 2 shards")
                .contains("shard 1/2: 3 hosts\n  r1, r2  (redis_group cache)\n  r5  (alone)\n")
                .contains("shard 2/2: 3 hosts\n  r3, r4  (replication)\n  r6  (alone)\n");
        // r1 and r2 too, though the inventory groups them: replication could contradict it
        assertThat(fleet.redisConnections()).isEqualTo(6);
    }

    @Test
    void theShardsOfARunDoEveryHostOnceAndKeepGroupsWhole() {
        List<String> done = new ArrayList<>();
        List<List<String>> shards = new ArrayList<>();
        for (String shard : List.of("1/2", "2/2")) {
            Path reports = dir.resolve("shard-" + shard.charAt(0));
            CliRun run = fleet.apply(
                            playbook.toString(),
                            "-i",
                            inventory.toString(),
                            "--shard",
                            shard,
                            "--report",
                            reports.toString())
                    .expectExit(ExitCode.OK);
            assertThat(run.stderr()).contains("fleetfix: shard " + shard + ": 3 of 6 hosts");
            List<String> hostsDone =
                    ReportJson.read(reports.resolve(ReportJson.FILE)).run().done();
            shards.add(hostsDone);
            done.addAll(hostsDone);
        }
        assertThat(done).containsExactlyInAnyOrder("r1", "r2", "r3", "r4", "r5", "r6");
        assertThat(shards).anySatisfy(s -> assertThat(s).contains("r1", "r2"));
        assertThat(shards).anySatisfy(s -> assertThat(s).contains("r3", "r4"));

        Path merged = dir.resolve("merged");
        CliRun merge = fleet.run(
                        "report",
                        "merge",
                        dir.resolve("shard-1").toString(),
                        dir.resolve("shard-2").toString(),
                        "-o",
                        merged.toString(),
                        "-i",
                        inventory.toString(),
                        "--no-color")
                .expectExit(ExitCode.OK);
        assertThat(merge.stdout()).contains("merged 2 reports into " + merged);
        assertThat(ReportJson.read(merged.resolve(ReportJson.FILE)).run().done())
                .containsExactlyInAnyOrder("r1", "r2", "r3", "r4", "r5", "r6");
        assertThat(merged.resolve("junit.xml")).content().contains("r6");
        assertThat(merged.resolve("report.html")).content().contains("r6");

        // one shard alone: the other's hosts are named, and the merge does not end ok
        CliRun half = fleet.run(
                        "report",
                        "merge",
                        dir.resolve("shard-1").toString(),
                        "-o",
                        dir.resolve("half").toString(),
                        "-i",
                        inventory.toString())
                .expectExit(ExitCode.FINDINGS);
        assertThat(half.stderr()).contains("fleetfix: warning: 3 hosts in no shard's report (fleetfix report merge): ");

        // the same shard twice: refused, naming a host and both directories
        CliRun twice = fleet.run(
                        "report",
                        "merge",
                        dir.resolve("shard-1").toString(),
                        merged.toString(),
                        "-o",
                        dir.resolve("twice").toString())
                .expectExit(ExitCode.USAGE);
        assertThat(twice.stderr())
                .contains("is in " + dir.resolve("shard-1") + " and " + merged + ": shards must not overlap");
    }

    @Test
    void aHostWhoseRedisDoesNotAnswerIsNamedAndNoHostIsTouched() {
        hosts.get("r5").redis().kill();

        CliRun run = fleet.apply(playbook.toString(), "-i", inventory.toString(), "--shard", "1/2")
                .expectExit(ExitCode.FINDINGS);

        assertThat(run.stderr())
                .contains("fleetfix: refused to cut shards: the replication group of r5 (")
                .contains("--limit 'all:!r5'")
                .doesNotContain("-vv");
        hosts.values().forEach(h -> assertThat(h.calls()).as(h.name()).isEmpty());
    }

    /** Issue 42, item 4: r4 replicates from r3, and the inventory names them in two groups. */
    @Test
    void aRedisGroupReplicationContradictsStopsEveryShardBeforeAnyHostIsTouched() throws Exception {
        Path split = Files.writeString(
                dir.resolve("split.yaml"),
                """
                all:
                  children:
                    redis:
                      hosts:
                        r3: {ansible_host: 10.0.0.3, redis_group: east}
                        r4: {ansible_host: 10.0.0.4, redis_group: west}
                """);
        for (String shard : List.of("1/2", "2/2")) {
            CliRun run = fleet.apply(playbook.toString(), "-i", split.toString(), "--shard", shard)
                    .expectExit(ExitCode.USAGE);
            assertThat(run.stderr())
                    .contains("fleetfix: refused to cut shards: the inventory's redis_group and replication disagree:"
                            + " r3 (redis_group east), r4 (redis_group west) are one replication group: r4"
                            + " replicates from r3")
                    .doesNotContain("kept whole");
        }
        hosts.values().forEach(h -> assertThat(h.calls()).as(h.name()).isEmpty());
    }

    @Test
    void aShardWithNoGroupRunsOnNoHost() {
        // 5 groups without asking Redis, 4 once r4 is known to replicate from r3: shard 5 of 5 has none
        CliRun run = fleet.apply(playbook.toString(), "-i", inventory.toString(), "--shard", "5/5")
                .expectExit(ExitCode.OK);

        assertThat(run.stderr()).contains("fleetfix: shard 5/5: 0 of 6 hosts, replication groups kept whole");
        hosts.values().forEach(h -> assertThat(h.calls()).as(h.name()).isEmpty());
    }

    @Test
    void aResumeTakesTheShardItsRunTookAndRefusesAnotherWithoutForce() throws Exception {
        Path restarting = Files.writeString(
                dir.resolve("restart.yaml"),
                """
                - name: thp off and restart
                  hosts: redis
                  serial: 1
                  steps:
                    - thp: {}
                    - restart_redis: {unit: "{{ redis_service }}"}
                    - wait_healthy: {timeout: 10s}
                """);
        Path runDir = dir.resolve("run");
        hosts.get("r5").failRestarts();
        CliRun first = fleet.apply(
                        restarting.toString(),
                        "-i",
                        inventory.toString(),
                        "--shard",
                        "1/2",
                        "--run-dir",
                        runDir.toString())
                .expectExit(ExitCode.FINDINGS);
        assertThat(first.stderr()).contains("fleetfix: shard 1/2: 3 of 6 hosts");
        assertThat(runDir.resolve("journal.jsonl")).content().contains("\"shard\":\"1/2\"");
        hosts.get("r5").delete("/fail-restart");
        List<String> otherShard = List.of("r3", "r4", "r6");
        Map<String, Integer> before = new java.util.HashMap<>();
        otherShard.forEach(h -> before.put(h, hosts.get(h).calls().size()));

        // another shard, or none given to a shard's run: refused before any host is touched
        CliRun other =
                fleet.apply("--resume", runDir.toString(), "--shard", "2/2").expectExit(ExitCode.USAGE);
        assertThat(other.stderr())
                .contains("fleetfix: --resume " + runDir + " ran shard 1/2, not shard 2/2: the hosts it did are its own"
                        + " cut's")
                .contains("give the same --shard (or none, to keep the run's)");
        otherShard.forEach(h -> assertThat(hosts.get(h).calls()).as(h).hasSize(before.get(h)));

        // no --shard: the run's own cut, so the other shard's hosts stay untouched
        CliRun resumed = fleet.apply("--resume", runDir.toString()).expectExit(ExitCode.OK);
        assertThat(resumed.stderr()).contains("fleetfix: shard 1/2: 3 of 6 hosts");
        assertThat(hosts.get("r5").thp("enabled")).isEqualTo("never");
        otherShard.forEach(h -> assertThat(hosts.get(h).calls()).as(h).hasSize(before.get(h)));

        // a run without --shard is resumed without one: a shard given then is refused too
        Path whole = dir.resolve("whole");
        hosts.get("r6").failRestarts();
        fleet.apply(restarting.toString(), "-i", inventory.toString(), "--run-dir", whole.toString())
                .expectExit(ExitCode.FINDINGS);
        CliRun narrowed =
                fleet.apply("--resume", whole.toString(), "--shard", "2/2").expectExit(ExitCode.USAGE);
        assertThat(narrowed.stderr()).contains("ran without --shard (every selected host), not shard 2/2");
    }

    @Test
    void aShardOutsideOneToNIsBadInput() {
        CliRun run = fleet.apply(playbook.toString(), "-i", inventory.toString(), "--shard", "3/2")
                .expectExit(ExitCode.USAGE);
        assertThat(run.stderr()).contains("fleetfix: --shard 3/2: K must be 1..2");
    }
}
