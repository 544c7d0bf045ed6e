package dev.fleetfix.steps.restart;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fleetfix.fake.FakeHost;
import dev.fleetfix.fake.FakeRedis;
import dev.fleetfix.fake.Harness;
import dev.fleetfix.redis.RedisException;
import dev.fleetfix.rollout.event.RunOutcome;
import dev.fleetfix.rollout.event.RunSummary;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A primary without FAILOVER (Redis 5.0) handed over to its replica by hand, through the engine. */
class ManualHandoverTest {
    private static final String PLAYBOOK =
            """
            - name: restart
              hosts: all
              steps:
                - restart_redis: {always: true%s}
                - wait_healthy: {timeout: 20s, gates: [ping, role_unchanged]}
            """;

    @TempDir
    Path dir;

    private FakeRedis replica;

    /** p (127.0.0.1 as its replica sees it) replicates to r (10.0.0.2), both at {@code version}. */
    private Harness pair(String version) {
        Harness h = new Harness(dir, "p");
        FakeRedis p = h.host("p").redis().version(version).persistence("", false);
        FakeRedis r = new FakeHost("r", dir).redis().version(version);
        p.set("slave0", "ip=10.0.0.2,port=6379,state=online,offset=0,lag=0");
        r.replicaOf("127.0.0.1", 6379, 0, "up");
        h.primaries((address, port, timeout) -> address.equals("10.0.0.2")
                ? Optional.of(r.connect())
                : address.equals("127.0.0.1") ? Optional.of(p.connect()) : Optional.empty());
        p.data().put("k1", "v1");
        r.data().put("k1", "v1");
        this.replica = r;
        return h;
    }

    @Test
    void redis50PausesTheClientsWaitsForTheOffsetAndPromotesItsReplica() throws Exception {
        Harness h = pair("5.0.14");
        RunSummary summary = h.run(PLAYBOOK.formatted(""));
        FakeRedis p = h.host("p").redis();
        assertThat(summary.outcome()).isEqualTo(RunOutcome.OK);
        assertThat(h.result("p", "restart_redis").facts()).containsEntry("restart.route", "manual");
        assertThat(p.commands())
                .containsSubsequence(
                        "MULTI",
                        "CONFIG SET min-slaves-to-write 1000000",
                        "CLIENT PAUSE 3000",
                        "INFO replication",
                        "EXEC",
                        "REPLICAOF 10.0.0.2 6379",
                        "CONFIG SET min-slaves-to-write 0",
                        "CONFIG SET min-slaves-max-lag 10",
                        "CONFIG REWRITE")
                .doesNotContain("FAILOVER", "CLIENT UNPAUSE");
        assertThat(replica.commands()).containsSubsequence("REPLICAOF NO ONE", "CONFIG REWRITE");
        // the write check after the promotion carries the run's id (made once, with its random part)
        assertThat(replica.commands())
                .anyMatch(c -> c.matches("SET fleetfix:failover:p 20261128T013000Z-[0-9a-f]{8} EX 60"));
        assertThat(replica.replication()).containsEntry("role", "master");
        assertThat(p.replication()).containsEntry("role", "slave").containsEntry("master_host", "10.0.0.2");
        assertThat(p.config()).containsEntry("min-slaves-to-write", "0");
        assertThat(p.restarts()).isEqualTo(1);
    }

    @Test
    void redis40UsesSlaveof() throws Exception {
        Harness h = pair("4.0.14");
        assertThat(h.run(PLAYBOOK.formatted("")).outcome()).isEqualTo(RunOutcome.OK);
        assertThat(replica.commands()).contains("SLAVEOF NO ONE");
        assertThat(h.host("p").redis().commands()).contains("SLAVEOF 10.0.0.2 6379");
    }

    @Test
    void aReplicaThatDoesNotCatchUpWithinThePauseIsNotPromoted() throws Exception {
        Harness h = pair("5.0.14");
        FakeRedis p = h.host("p").redis();
        p.set("master_repl_offset", "500"); // r stays at offset 0
        RunSummary summary = h.run(PLAYBOOK.formatted(""));
        assertThat(summary.outcome()).isEqualTo(RunOutcome.HALTED);
        assertThat(h.result("p", "restart_redis").message())
                .contains("r (10.0.0.2:6379) did not reach offset 500 of p within the 3s pause")
                .contains("not restarted, Redis left running");
        assertThat(replica.commands()).doesNotContain("REPLICAOF NO ONE");
        assertThat(p.replication()).containsEntry("role", "master");
        assertThat(p.config()).containsEntry("min-slaves-to-write", "0");
        assertThat(p.restarts()).isZero();
        // nothing was restarted: the data check's canary has nothing to prove and is not left for its hour
        assertThat(p.commands()).anyMatch(c -> c.startsWith("SET fleetfix:canary:"));
        assertThat(p.data().keySet()).noneMatch(k -> k.startsWith("fleetfix:"));
    }

    @Test
    void forcedManualOn62PausesWritesOnlyAndLiftsThePause() throws Exception {
        Harness h = pair("6.2.11");
        RunSummary summary = h.run(PLAYBOOK.formatted(", failover: manual"));
        assertThat(summary.outcome()).isEqualTo(RunOutcome.OK);
        assertThat(h.host("p").redis().commands())
                .containsSubsequence("CLIENT PAUSE 3000 WRITE", "REPLICAOF 10.0.0.2 6379", "CLIENT UNPAUSE")
                .doesNotContain("FAILOVER");
    }

    /**
     * The manual route's CLIENT PAUSE and REPLICAOF on the primary were not asked about before the hand-over: a Redis
     * whose ACL or rename-command forbids them was paused and guarded, or had its replica promoted, before the refusal.
     * Now they are asked with the rest of the route's commands, and the host is left as it was.
     */
    @Test
    void aManualRouteWhoseCommandsThePrimaryRefusesIsRefusedBeforeAnyChange() throws Exception {
        Harness h = pair("7.2.4");
        FakeRedis p = h.host("p").redis();
        p.on("ACL", a -> switch (a.get(2)) {
            case "CLIENT" -> "User default has no permissions to run the 'client|pause' command";
            case "REPLICAOF" -> throw new RedisException("p", "ERR Command 'replicaof' not found", null);
            default -> "OK";
        });

        RunSummary summary = h.run(PLAYBOOK.formatted(", failover: manual"));

        assertThat(summary.outcome()).isEqualTo(RunOutcome.HALTED);
        assertThat(h.result("p", "restart_redis").message())
                .contains("Redis refuses commands this restart needs: client|pause (NOPERM for user default),"
                        + " replicaof (renamed away)")
                .endsWith("Redis left running");
        assertThat(p.commands())
                .contains("ACL DRYRUN default CLIENT PAUSE 10000 WRITE", "ACL DRYRUN default REPLICAOF NO ONE")
                .noneMatch(c -> c.startsWith("CONFIG SET") || c.equals("MULTI") || c.startsWith("CLIENT PAUSE"));
        assertThat(replica.commands()).doesNotContain("REPLICAOF NO ONE");
        assertThat(p.replication()).containsEntry("role", "master");
        assertThat(p.restarts()).isZero();
        assertThat(p.data()).containsOnlyKeys("k1");
    }

    @Test
    void redis28WithAReplicaIsSavedAndRestartedInPlaceNotFailedOver() throws Exception {
        Harness h = pair("2.8.19");
        h.host("p").redis().persistence("900 1", false);
        RunSummary summary = h.run(PLAYBOOK.formatted(""));
        assertThat(summary.outcome()).isEqualTo(RunOutcome.OK);
        assertThat(h.result("p", "restart_redis").facts())
                .containsEntry("restart.path", "save_then_restart")
                .containsEntry("restart.route", "none");
        assertThat(h.host("p").redis().commands()).contains("BGSAVE").doesNotContain("MULTI");
        assertThat(replica.commands()).isEmpty();
    }
}
