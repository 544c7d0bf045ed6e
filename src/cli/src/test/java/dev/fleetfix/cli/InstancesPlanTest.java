package dev.fleetfix.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fleetfix.fake.FakeHost;
import dev.fleetfix.fake.TestClock;
import dev.fleetfix.rollout.RolloutPolicy;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** Two machines with two Redis instances each, replicating across: the order a check run shows. */
class InstancesPlanTest {
    @TempDir
    Path dir;

    private final Map<String, FakeHost> hosts = new LinkedHashMap<>();
    private final TestClock clock = new TestClock(Instant.parse("2026-11-28T01:30:00Z"));
    private Path inventory;

    @BeforeEach
    void fleet() throws Exception {
        for (String name : new String[] {"c1@6379", "c1@6380", "c2@6379", "c2@6380"}) {
            hosts.put(name, new FakeHost(name, dir));
        }
        // c1@6379 -> replica c2@6380; c2@6379 -> replica c1@6380
        hosts.get("c1@6379").redis().set("slave0", "ip=10.0.0.2,port=6380,state=online,offset=0,lag=0");
        hosts.get("c2@6380").redis().replicaOf("10.0.0.1", 6379, 0, "up");
        hosts.get("c2@6379").redis().set("slave0", "ip=10.0.0.1,port=6380,state=online,offset=0,lag=0");
        hosts.get("c1@6380").redis().replicaOf("10.0.0.2", 6379, 0, "up");
        inventory = dir.resolve("inventory.yaml");
        Files.writeString(
                inventory,
                """
                redis:
                  vars:
                    redis_instances: [{port: 6379, service: redis-server}, {port: 6380, name: b}]
                  hosts:
                    c1: {ansible_host: 10.0.0.1}
                    c2: {ansible_host: 10.0.0.2}
                """);
    }

    private String checkRun(String play) throws Exception {
        Path playbook = dir.resolve("play.yaml");
        Files.writeString(playbook, play);
        CommandLine cmd = Main.commandLine(Adapters.builder()
                .clock(clock)
                .sleeper(clock.sleeper())
                .shells(host -> hosts.get(host.name()).shell())
                .redis((host, timeout) -> hosts.get(host.name()).redis().connect())
                .policy(RolloutPolicy.of(2, Duration.ofMillis(10)))
                .runsHome(dir.resolve("fleetfix-runs"))
                .build());
        // --check: the batches come from Redis, which --list-hosts does not read
        CliRun run = CliRun.of(cmd, "apply", playbook.toString(), "-i", inventory.toString(), "--check", "--no-color");
        assertThat(run.exitCode()).as(run.toString()).isIn(ExitCode.OK, ExitCode.CHANGES_PENDING);
        return run.stdout();
    }

    @Test
    void instancesOfOneMachineNeverShareABatch() throws Exception {
        String out = checkRun("- name: thp\n  hosts: redis\n  steps:\n    - thp: {}\n");
        assertThat(out)
                .contains("2 batches: [c1@6379, c2@6379] [c1@6380, c2@6380]\n")
                .contains("split: c1@6380 after c1@6379 (same machine c1: one instance at a time)");
    }

    @Test
    void replicasGoFirstAndNoPrimaryIsDownWithItsReplica() throws Exception {
        String out = checkRun("- name: restart\n  hosts: redis\n  steps:\n    - restart_redis: {}\n");
        assertThat(out)
                .contains("2 batches: [c2@6380, c1@6380] [c1@6379, c2@6379]\n")
                .contains("topology: c1@6379 primary of c2@6380 (in sync)");
    }
}
