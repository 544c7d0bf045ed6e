package dev.fleetfix.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fleetfix.fake.FakeHost;
import dev.fleetfix.fake.TestClock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * How many commands fleetfix sends to a host, and how many Redis connections it opens, for an audit and for the shipped
 * THP playbook (its benchmarks aside: they are Redis load, not reads). Each command costs a round trip and, as root, a
 * sudo on the host: a read sent twice is a cost the fleet pays per host. Counted on one fake host; the counts are
 * printed by kind, so a change to them shows what moved.
 */
class RemoteTripsTest {
    @TempDir
    Path dir;

    private final TestClock clock = new TestClock(Instant.parse("2026-12-06T10:00:00Z"));
    private FakeFleet fleet;
    private FakeHost host;
    private Path inventory;

    @BeforeEach
    void oneHost() throws Exception {
        fleet = new FakeFleet(dir, clock, "r1");
        host = fleet.hosts().get("r1");
        inventory = Files.writeString(
                dir.resolve("inventory.yaml"),
                "all:\n  hosts:\n    r1: {ansible_host: 127.0.0.1, ansible_become: true}\n");
    }

    @Test
    void anAuditReadsAHostInOneCommandAndOneRedisConnection() {
        CliRun audit = fleet.run("audit", "-i", inventory.toString());

        assertThat(audit.exitCode()).as(audit.toString()).isIn(0, 1);
        System.out.println("audit: " + kinds(host.scripts()) + ", redis connections " + fleet.redisConnections());
        assertThat(host.scripts()).as(kinds(host.scripts()).toString()).hasSize(1);
        assertThat(fleet.redisConnections()).isEqualTo(1);
    }

    @Test
    void theThpPlaybookReadsTheHostsFactsOnce() {
        CliRun apply = fleet.apply(
                Path.of("playbooks/thp-off.yaml").toString(), "-i", inventory.toString(), "--skip-tags", "benchmark");

        assertThat(apply.exitCode()).as(apply.toString()).isZero();
        Map<String, Integer> kinds = kinds(host.scripts());
        System.out.println("thp-off.yaml: " + host.scripts().size() + " commands " + kinds + ", redis connections "
                + fleet.redisConnections());
        // the preflight reads the host and forecasts every step before the first change; the run takes the audit's
        // read from it (nothing changed in between); persist_thp and restart_redis take the service the audit's trip
        // found, in their forecast and in their run (THP and the boot unit leave it as it was): before, each read it
        // again, 4 discovery commands and 4 Redis connections (35 commands, 41 connections)
        assertThat(kinds.getOrDefault("facts+discovery", 0))
                .as(kinds.toString())
                .isEqualTo(1);
        assertThat(kinds).as("no step reads the service again").doesNotContainKey("discovery");
        assertThat(kinds).as("the audit step reads no service of its own").doesNotContainKey("facts");
        assertThat(host.scripts()).as(kinds.toString()).hasSizeLessThanOrEqualTo(31);
        assertThat(fleet.redisConnections()).isLessThanOrEqualTo(37);
    }

    @Test
    void aChangeThatMayHaveTouchedRedisMakesTheNextStepReadItsServiceAgain() throws Exception {
        Path playbook = Files.writeString(
                dir.resolve("command-then-restart.yaml"),
                """
                - hosts: all
                  steps:
                    - audit: {}
                    - command: {cmd: "true"}
                    - restart_redis: {always: true}
                """);

        CliRun apply = fleet.apply(playbook.toString(), "-i", inventory.toString());

        assertThat(apply.exitCode()).as(apply.toString()).isZero();
        Map<String, Integer> kinds = kinds(host.scripts());
        // the forecast changes nothing: restart_redis forecasts with the audit's read; in the run, the command may
        // have restarted or replaced Redis, so restart_redis finds its service anew, once
        assertThat(kinds.getOrDefault("facts+discovery", 0))
                .as(kinds.toString())
                .isEqualTo(1);
        assertThat(kinds.getOrDefault("discovery", 0)).as(kinds.toString()).isEqualTo(1);
    }

    /** The commands by what they are: the one-trip read, the fact script, discovery, and the rest by first word. */
    private static Map<String, Integer> kinds(List<String> scripts) {
        Map<String, Integer> kinds = new TreeMap<>();
        for (String script : scripts) {
            String kind;
            if (script.startsWith(dev.fleetfix.checks.HostAuditor.FIRST_LINE)) {
                kind = "facts+discovery";
            } else if (script.startsWith(dev.fleetfix.checks.ServiceDiscovery.FIRST_LINE)) {
                kind = "discovery";
            } else if (script.startsWith("redis_pid=")) {
                kind = "facts";
            } else {
                String first = script.strip().split("\\s+", 2)[0];
                kind = first.length() > 24 ? first.substring(0, 24) : first;
            }
            kinds.merge(kind, 1, Integer::sum);
        }
        return kinds;
    }
}
