package dev.fleetfix.steps.restart;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fleetfix.fake.FakeRedis;
import dev.fleetfix.fake.Harness;
import dev.fleetfix.inventory.Connection;
import dev.fleetfix.inventory.Host;
import dev.fleetfix.inventory.Inventory;
import dev.fleetfix.inventory.RedisAuth;
import dev.fleetfix.inventory.RedisEndpoint;
import dev.fleetfix.redis.RedisException;
import dev.fleetfix.redis.topology.Sentinels;
import dev.fleetfix.rollout.event.RunOutcome;
import dev.fleetfix.rollout.event.RunSummary;
import dev.fleetfix.steps.model.StepResult;
import dev.fleetfix.steps.model.StepStatus;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** restart_redis on fake hosts: failover, save, refusal and the data check, end to end through the engine. */
class SafeRestartTest {
    @TempDir
    Path dir;

    private static String playbook(String restartArgs) {
        return """
                - name: restart
                  hosts: all
                  steps:
                    - restart_redis: {always: true%s}
                    - wait_healthy: {timeout: 20s, gates: [ping, role_unchanged]}
                """
                .formatted(restartArgs);
    }

    /** p (127.0.0.1 as its replica sees it) replicates to r (10.0.0.2); FAILOVER swaps them and copies the data. */
    private Harness pair(boolean pPersistent) {
        Harness h = new Harness(dir, "p");
        FakeRedis p = h.host("p").redis();
        FakeRedis r = new dev.fleetfix.fake.FakeHost("r", dir).redis();
        p.persistence(pPersistent ? "3600 1" : "", false);
        p.set("slave0", "ip=10.0.0.2,port=6379,state=online,offset=0,lag=0");
        r.replicaOf("127.0.0.1", 6379, 0, "up");
        p.onFailover(args -> {
            assertThat(args).startsWith("TO", "10.0.0.2", "6379", "TIMEOUT");
            p.replication().remove("slave0");
            p.replicaOf("10.0.0.2", 6379, 0, "up");
            r.replication().clear();
            r.replication().put("role", "master");
            r.replication().put("master_repl_offset", "0");
            r.replication().put("slave0", "ip=127.0.0.1,port=6379,state=online,offset=0,lag=0");
            r.data().putAll(p.data());
            return "OK";
        });
        r.onFailover(args -> {
            r.replication().remove("slave0");
            r.replicaOf("127.0.0.1", 6379, 0, "up");
            p.replication().clear();
            p.replication().put("role", "master");
            p.replication().put("master_repl_offset", "0");
            p.set("slave0", "ip=10.0.0.2,port=6379,state=online,offset=0,lag=0");
            return "OK";
        });
        h.primaries((address, port, timeout) -> address.equals("10.0.0.2")
                ? Optional.of(r.connect())
                : address.equals("127.0.0.1") ? Optional.of(p.connect()) : Optional.empty());
        p.data().put("k1", "v1");
        p.data().put("k2", "v2");
        this.replica = r;
        return h;
    }

    private FakeRedis replica;

    private static final long CHANGED = 1_800_000_000L;
    private static final String OURS = "8c1e0a3f9b2d4e6f8c1e0a3f9b2d4e6f8c1e0a3f";

    /**
     * p is a replica of r, r primary, and p's Redis started 400 s after its record's change (it runs under it):
     * what a run killed at the failback leaves, and what an operator's failover back to r looks like.
     */
    private Harness pWasHandedOverTo(String replid2OfR, String handover) {
        Harness h = pair(false);
        FakeRedis p = h.host("p").redis();
        p.replication().clear();
        p.replicaOf("10.0.0.2", 6379, 0, "up");
        replica.replication().clear();
        replica.replication().put("role", "master");
        replica.replication().put("master_repl_offset", "0");
        replica.replication().put("slave0", "ip=127.0.0.1,port=6379,state=online,offset=0,lag=0");
        if (!replid2OfR.isEmpty()) {
            replica.replication().put("master_replid2", replid2OfR);
        }
        p.server(Map.of("redis_version", "7.0.15", "uptime_in_seconds", "100"));
        p.on("TIME", args -> List.of(Long.toString(CHANGED + 500), "0"));
        h.host("p")
                .write(
                        PendingRestart.PATH,
                        "since=" + CHANGED + "\nreason=thp.enabled always -> never\nrun=R1\nhandover=" + handover
                                + "\n");
        return h;
    }

    private static final String FAILBACK_PLAY =
            """
            - name: thp off
              hosts: all
              steps:
                - restart_redis: {failback: true}
            """;

    /**
     * The record a run killed at its failback left (as fleetfix wrote it before it kept a lineage), on the "already
     * runs under it" path, after the operator failed over to r on purpose: r stays primary and the record goes.
     */
    @Test
    void aStaleFailbackRecordDoesNotUndoAnOperatorsFailoverAndIsCleared() throws Exception {
        Harness h = pWasHandedOverTo("", "failover 10.0.0.2 6379 r failback");
        RunSummary summary = h.run(FAILBACK_PLAY);
        StepResult restart = h.result("p", "restart_redis");
        assertThat(summary.outcome()).as(restart.message()).isEqualTo(RunOutcome.OK);
        assertThat(restart.status()).isEqualTo(StepStatus.SKIPPED);
        assertThat(replica.replication()).containsEntry("role", "master");
        assertThat(h.host("p").redis().replication()).containsEntry("role", "slave");
        assertThat(replica.commands()).noneMatch(c -> c.startsWith("FAILOVER"));
        assertThat(h.host("p").redis().restarts()).isZero();
        assertThat(h.host("p").read(PendingRestart.PATH)).isEmpty();
        assertThat(restart.message())
                .contains("it already runs under it")
                .contains("dropped the hand-over record of run R1 (FAILOVER to r (10.0.0.2:6379))")
                .contains("make p primary again by hand if it should be; no failback");
    }

    /** The same with a record that keeps its lineage: r was promoted again since (another replid2), by the operator. */
    @Test
    void aFailbackRecordWhoseNewPrimaryWasPromotedAgainSinceIsDroppedNotActedOn() throws Exception {
        Harness h = pWasHandedOverTo(
                "0123456789abcdef0123456789abcdef01234567", "failover 10.0.0.2 6379 r failback " + OURS + " p");
        h.run(FAILBACK_PLAY);
        assertThat(replica.replication()).containsEntry("role", "master");
        assertThat(replica.commands()).noneMatch(c -> c.startsWith("FAILOVER"));
        assertThat(h.host("p").read(PendingRestart.PATH)).isEmpty();
        assertThat(h.result("p", "restart_redis").message()).contains("r was made primary again since the hand-over");
    }

    /** Killed at the failback, before FAILOVER was sent: r's last promotion is the journalled one, so p fails back. */
    @Test
    void aRunKilledAtTheFailbackFailsBackWhenTheNewPrimarysLastPromotionIsTheJournalledOne() throws Exception {
        Harness h = pWasHandedOverTo(OURS, "failover 10.0.0.2 6379 r failback " + OURS + " p");
        RunSummary summary = h.run(FAILBACK_PLAY);
        StepResult restart = h.result("p", "restart_redis");
        assertThat(summary.outcome()).as(restart.message()).isEqualTo(RunOutcome.OK);
        assertThat(h.host("p").redis().replication()).containsEntry("role", "master");
        assertThat(restart.message()).contains("failed back: p is primary again");
        assertThat(h.host("p").read(PendingRestart.PATH)).isEmpty();
    }

    /** Killed once the failback's FAILOVER was done: p is primary, the record's hand-over is over and goes. */
    @Test
    void aRecordLeftByARunKilledAfterItsFailbackIsClearedByTheNextRun() throws Exception {
        Harness h = pWasHandedOverTo(OURS, "failover 10.0.0.2 6379 r failback " + OURS + " p");
        replica.runFailover(List.of());
        RunSummary summary = h.run(FAILBACK_PLAY);
        StepResult restart = h.result("p", "restart_redis");
        assertThat(summary.outcome()).as(restart.message()).isEqualTo(RunOutcome.OK);
        assertThat(restart.message()).contains("p is primary (the hand-over was undone or never done)");
        assertThat(h.host("p").read(PendingRestart.PATH)).isEmpty();
        assertThat(h.host("p").redis().commands()).noneMatch(c -> c.startsWith("FAILOVER"));
    }

    /** The record is the machine's: another Redis of the same machine neither finishes nor drops p's hand-over. */
    @Test
    void anotherInstancesHandOverIsNeitherActedOnNorDropped() throws Exception {
        String record = "failover 10.0.0.2 6379 r failback " + OURS + " p-6380";
        Harness h = pWasHandedOverTo(OURS, record);
        h.run(FAILBACK_PLAY);
        assertThat(replica.commands()).noneMatch(c -> c.startsWith("FAILOVER"));
        assertThat(h.host("p").read(PendingRestart.PATH))
                .hasValueSatisfying(r -> assertThat(r).contains("handover=" + record));
        assertThat(h.result("p", "restart_redis").status()).isEqualTo(StepStatus.SKIPPED);
    }

    /** Check mode says it would drop the record, and leaves it. */
    @Test
    void checkModeSaysItWouldDropAStaleRecordAndKeepsIt() throws Exception {
        Harness h = pWasHandedOverTo("", "failover 10.0.0.2 6379 r failback");
        h.check(FAILBACK_PLAY);
        assertThat(h.result("p", "restart_redis").message()).contains("apply would drop the hand-over record");
        assertThat(h.host("p").read(PendingRestart.PATH)).isPresent();
    }

    @Test
    void aPrimaryFailsOverToItsInSyncReplicaThenRestartsAsAReplica() throws Exception {
        Harness h = pair(false);
        RunSummary summary = h.run(playbook(""));
        StepResult restart = h.result("p", "restart_redis");
        assertThat(summary.outcome()).as(restart.message()).isEqualTo(RunOutcome.OK);
        assertThat(restart.message())
                .startsWith("primary: fail over to r (10.0.0.2:6379) (online, lag 0s) first")
                .contains("data check: 3 keys in 1 db and the canary kept");
        assertThat(restart.facts()).containsEntry("redis.role_expected", "slave");
        assertThat(restart.facts()).containsEntry("restart.route", "failover");
        assertThat(h.host("p").redis().commands())
                .contains("CONFIG REWRITE")
                .anyMatch(c -> c.startsWith("FAILOVER TO 10.0.0.2 6379 TIMEOUT"))
                .anyMatch(c -> c.startsWith("SET fleetfix:canary:p"));
        assertThat(replica.commands()).contains("CONFIG REWRITE").anyMatch(c -> c.startsWith("SET fleetfix:failover:"));
        assertThat(h.host("p").redis().restarts()).isEqualTo(1);
        assertThat(h.host("p").redis().replication()).containsEntry("role", "slave");
        // role_unchanged understands the planned failover
        assertThat(h.result("p", "wait_healthy").status()).isEqualTo(StepStatus.OK);
        assertThat(h.host("p").redis().data()).containsKeys("k1", "k2");
        // the canary is removed on the primary of the moment (the fake does not replicate the DEL)
        assertThat(replica.data()).containsKeys("k1", "k2").doesNotContainKey("fleetfix:canary:p");
    }

    @Test
    void failbackMakesTheOldPrimaryPrimaryAgain() throws Exception {
        Harness h = pair(false);
        RunSummary summary = h.run(playbook(", failback: true"));
        StepResult restart = h.result("p", "restart_redis");
        assertThat(summary.outcome()).as(restart.message()).isEqualTo(RunOutcome.OK);
        assertThat(h.host("p").redis().replication()).containsEntry("role", "master");
        assertThat(replica.replication()).containsEntry("role", "slave");
        assertThat(restart.facts()).containsEntry("redis.role_expected", "master");
        assertThat(restart.changes()).extracting(c -> c.after()).contains("master (failed back)");
    }

    /**
     * The restarted primary's link is up before its new primary calls it online (at its first acknowledgement, up to a
     * second later), and FAILOVER refuses a target that is not online: the failback waits for the primary's word.
     */
    @Test
    void failbackWaitsUntilTheNewPrimaryListsTheRestartedHostOnline() throws Exception {
        Harness h = pair(false);
        FakeRedis p = h.host("p").redis();
        String online = "ip=127.0.0.1,port=6379,state=online,offset=0,lag=0";
        p.onFailover(args -> {
            p.replication().remove("slave0");
            p.replicaOf("10.0.0.2", 6379, 0, "up");
            replica.replication().clear();
            replica.replication().put("role", "master");
            replica.replication().put("master_repl_offset", "0");
            replica.replication().put("slave0", "ip=127.0.0.1,port=6379,state=wait_bgsave,offset=0,lag=0");
            replica.data().putAll(p.data());
            return "OK";
        });
        AtomicInteger reads = new AtomicInteger();
        replica.beforeInfo(() -> {
            if (p.restarts() > 0 && reads.incrementAndGet() == 3) {
                replica.replication().put("slave0", online);
            }
        });
        // the fake r's FAILOVER refuses as Redis does until p is online
        java.util.function.Function<List<String>, Object> back = args -> {
            if (!online.equals(replica.replication().get("slave0"))) {
                throw new RedisException("r", "ERR FAILOVER target replica is not online.", null);
            }
            replica.replication().remove("slave0");
            replica.replicaOf("127.0.0.1", 6379, 0, "up");
            p.replication().clear();
            p.replication().put("role", "master");
            p.replication().put("master_repl_offset", "0");
            p.set("slave0", "ip=10.0.0.2,port=6379,state=online,offset=0,lag=0");
            return "OK";
        };
        replica.onFailover(back);

        RunSummary summary = h.run(playbook(", failback: true"));

        StepResult restart = h.result("p", "restart_redis");
        assertThat(summary.outcome()).as(restart.message()).isEqualTo(RunOutcome.OK);
        assertThat(restart.message()).contains("failed back: p is primary again");
        assertThat(replica.commands().stream().filter(c -> c.startsWith("FAILOVER")))
                .as("sent once, when p was online")
                .hasSize(1);
    }

    /**
     * A Sentinel watching p as master "cache": SENTINEL FAILOVER swaps p and r as the pair's
     * FAILOVER does, and its answers follow whichever is primary.
     */
    private FakeRedis sentinelOver(Harness h) {
        FakeRedis p = h.host("p").redis();
        FakeRedis sentinel = FakeRedis.named("s1");
        sentinel.on("SENTINEL", args -> {
            boolean pPrimary = "master".equals(p.replication().get("role"));
            String ip = pPrimary ? "127.0.0.1" : "10.0.0.2";
            return switch (args.get(0)) {
                case "MASTERS" -> List.of(List.of(
                        "name",
                        "cache",
                        "ip",
                        ip,
                        "port",
                        "6379",
                        "flags",
                        "master",
                        "num-slaves",
                        "1",
                        "num-other-sentinels",
                        "2",
                        "quorum",
                        "2"));
                case "GET-MASTER-ADDR-BY-NAME" -> List.of(ip, "6379");
                case "REPLICAS" -> List.of(List.of(
                        "ip",
                        pPrimary ? "10.0.0.2" : "127.0.0.1",
                        "port",
                        "6379",
                        "flags",
                        "slave",
                        "master-link-status",
                        "ok",
                        "slave-priority",
                        "1"));
                case "FAILOVER" -> pPrimary
                        ? p.runFailover(List.of("TO", "10.0.0.2", "6379", "TIMEOUT", "0"))
                        : replica.runFailover(List.of("TO", "127.0.0.1", "6379", "TIMEOUT", "0"));
                default -> throw new IllegalArgumentException(args.toString());
            };
        });
        h.sentinels(Sentinels.of(inventoryWithSentinel(), (host, timeout) -> sentinel.connect()));
        return sentinel;
    }

    private static Inventory inventoryWithSentinel() {
        Host sentinelHost = new Host(
                "s1",
                "10.0.0.9",
                22,
                Optional.empty(),
                Optional.empty(),
                false,
                Optional.empty(),
                Optional.empty(),
                Connection.SSH,
                RedisEndpoint.defaultsFor("10.0.0.9"),
                List.of("all", "sentinel"),
                Map.of(),
                Optional.of(new RedisEndpoint("10.0.0.9", 26379, RedisAuth.NONE, false, "redis-sentinel")));
        return new Inventory(Optional.empty(), List.of(sentinelHost), Map.of("all", List.of("s1")));
    }

    @Test
    void aPrimarySentinelWatchesFailsOverThroughItAndBackWithThePriorityRestored() throws Exception {
        Harness h = pair(false);
        FakeRedis sentinel = sentinelOver(h);
        RunSummary summary = h.run(playbook(", failback: true"));
        StepResult restart = h.result("p", "restart_redis");
        assertThat(summary.outcome()).as(restart.message()).isEqualTo(RunOutcome.OK);
        assertThat(restart.message())
                .startsWith("primary 'cache' at 127.0.0.1:6379 (quorum 2 of 3 sentinels): SENTINEL FAILOVER first")
                .contains("SENTINEL FAILOVER cache: r (10.0.0.2:6379) is primary")
                .contains("data check: 3 keys in 1 db and the canary kept")
                .contains("failed back: p is primary again");
        assertThat(restart.facts()).containsEntry("restart.route", "sentinel");
        assertThat(sentinel.commands())
                .filteredOn(c -> c.equals("SENTINEL FAILOVER cache"))
                .hasSize(2);
        // no FAILOVER TO behind Sentinel's back; the failback priority is set, then restored and saved
        assertThat(h.host("p").redis().commands())
                .noneMatch(c -> c.startsWith("FAILOVER"))
                .containsSubsequence(
                        "CONFIG SET replica-priority 1", "CONFIG SET replica-priority 100", "CONFIG REWRITE");
        assertThat(h.host("p").redis().replication()).containsEntry("role", "master");
        assertThat(h.host("p").redis().restarts()).isEqualTo(1);
    }

    /**
     * The pair as a cluster of one shard: each node answers CLUSTER NODES, KEYSLOT and LINKS for
     * whichever role it has, and CLUSTER FAILOVER on the replica swaps the roles, but only from its
     * {@code dropped + 1}th request on (Redis drops a manual failover that finds no majority).
     */
    private void asCluster(Harness h, int dropped) {
        FakeRedis p = h.host("p").redis().clusterEnabled();
        FakeRedis r = replica.clusterEnabled();
        AtomicInteger requests = new AtomicInteger();
        for (FakeRedis node : List.of(p, r)) {
            boolean isP = node == p;
            node.on("CLUSTER", args -> switch (args.get(0)) {
                case "NODES" -> {
                    boolean pPrimary = "master".equals(p.replication().get("role"));
                    String pLine = "aaaa 127.0.0.1:6379@16379 " + (isP ? "myself," : "")
                            + (pPrimary ? "master - 0 0 1 connected 0-16383" : "slave bbbb 0 0 2 connected");
                    String rLine = "bbbb 10.0.0.2:6379@16379 " + (isP ? "" : "myself,")
                            + (pPrimary ? "slave aaaa 0 0 1 connected" : "master - 0 0 2 connected 0-16383");
                    yield pLine + "\n" + rLine + "\n";
                }
                case "KEYSLOT" -> 42L;
                case "LINKS" -> List.of(List.of("direction", "from", "node", isP ? "bbbb" : "aaaa"));
                case "FAILOVER" -> {
                    if (requests.incrementAndGet() > dropped) {
                        (isP ? r : p)
                                .runFailover(List.of("TO", isP ? "127.0.0.1" : "10.0.0.2", "6379", "TIMEOUT", "0"));
                    }
                    yield "OK";
                }
                default -> throw new IllegalArgumentException(args.toString());
            });
        }
    }

    @Test
    void aClusterPrimaryHandsItsSlotsToItsReplicaAskingAgainWhenAnElectionIsDropped() throws Exception {
        Harness h = pair(false);
        asCluster(h, 1);
        RunSummary summary = h.run(playbook(", failback: true"));
        StepResult restart = h.result("p", "restart_redis");
        assertThat(summary.outcome()).as(restart.message()).isEqualTo(RunOutcome.OK);
        assertThat(restart.message())
                .startsWith("cluster primary: CLUSTER FAILOVER on r (10.0.0.2:6379) (online, lag 0s) first")
                .contains("data check: 3 keys in 1 db and the canary kept")
                .contains("failed back: p is primary again");
        assertThat(restart.facts()).containsEntry("restart.route", "cluster");
        // the first request was dropped and sent again; the failback took the first
        assertThat(replica.commands()).filteredOn("CLUSTER FAILOVER"::equals).hasSize(2);
        assertThat(h.host("p").redis().commands())
                .contains("CLUSTER FAILOVER", "READONLY")
                .noneMatch(c -> c.startsWith("FAILOVER") || c.equals("CONFIG REWRITE"))
                .anyMatch(c -> c.startsWith("SET fleetfix:canary:p:{0}"));
        assertThat(h.host("p").redis().replication()).containsEntry("role", "master");
    }

    @Test
    void sentinelsNamedButSilentLeaveThePrimaryRunningWithoutAFailover() throws Exception {
        Harness h = pair(true);
        Inventory inventory = inventoryWithSentinel();
        h.sentinels(Sentinels.of(inventory, (host, timeout) -> {
            throw new RedisException(host.name(), "connection refused (" + host.redis() + ")", null);
        }));
        RunSummary summary = h.run(playbook(""));
        assertThat(summary.outcome()).isEqualTo(RunOutcome.HALTED);
        assertThat(h.result("p", "restart_redis").message())
                .startsWith("refused: primary with a replica, and the inventory names sentinels but")
                .contains("connection refused (10.0.0.9:26379)")
                .contains("whether Sentinel manages it is unknown")
                .endsWith("Redis left running");
        assertThat(h.host("p").redis().restarts()).isZero();
        assertThat(h.host("p").redis().commands()).noneMatch(c -> c.startsWith("FAILOVER"));
    }

    @Test
    void failoverNeverWithoutPersistenceIsRefusedAndNothingRestarts() throws Exception {
        Harness h = pair(false);
        RunSummary summary = h.run(playbook(", failover: never"));
        assertThat(summary.outcome()).isEqualTo(RunOutcome.HALTED);
        assertThat(h.result("p", "restart_redis").message())
                .startsWith("refused: primary, failover off (failover: never), and no persistence");
        assertThat(h.host("p").redis().restarts()).isZero();
        // only the host's pending-restart record was read
        assertThat(h.host("p").scripts()).allMatch(s -> s.contains(PendingRestart.PATH) && s.contains("head -c"));
    }

    @Test
    void aPrimaryWithoutReplicaIsSavedBeforeItsRestart() throws Exception {
        Harness h = new Harness(dir, "solo");
        h.host("solo").redis().data().put("k", "v");
        RunSummary summary = h.run(playbook(""));
        assertThat(summary.outcome()).isEqualTo(RunOutcome.OK);
        assertThat(h.host("solo").redis().commands()).contains("BGSAVE SCHEDULE");
        assertThat(h.host("solo").redis().saves()).isEqualTo(1);
        assertThat(h.result("solo", "restart_redis").facts()).containsEntry("restart.path", "save_then_restart");
    }

    @Test
    void keysLostInTheRestartFailTheHostAndHaltTheRollout() throws Exception {
        Harness h = new Harness(dir, "a", "b");
        h.host("a").redis().losesDataOnRestart().data().put("k", "v");
        RunSummary summary = h.run(playbook("").replace("hosts: all", "hosts: all\n  serial: 1"));
        assertThat(summary.outcome()).isEqualTo(RunOutcome.HALTED);
        assertThat(summary.untouched()).containsExactly("b");
        assertThat(h.result("a", "restart_redis").message())
                .contains("data check failed: timed out after 90s: canary fleetfix:canary:a missing;"
                        + " db0 had 2 keys (1 with an expiry) before, 0 after");
    }

    @Test
    void checkModeSaysWhatItWouldDoAndDoesNothing() throws Exception {
        Harness h = pair(false);
        RunSummary summary = h.check(playbook(""));
        assertThat(summary.changesPending()).isTrue();
        assertThat(h.result("p", "restart_redis").message())
                .contains("fail over to r (10.0.0.2:6379)")
                .contains("check mode: nothing done");
        // only looked whether a run that died left its canary, and asked (ACL DRYRUN runs nothing) whether the
        // route's commands are allowed
        assertThat(h.host("p").redis().commands())
                .containsExactly(
                        "GET fleetfix:canary:p",
                        "ACL DRYRUN default SET fleetfix:canary:x 1 EX 3600",
                        "ACL DRYRUN default GET fleetfix:canary:x",
                        "ACL DRYRUN default DEL fleetfix:canary:x",
                        "ACL DRYRUN default FAILOVER",
                        "ACL DRYRUN default CONFIG REWRITE");
        assertThat(h.host("p").redis().restarts()).isZero();
    }

    @Test
    void aRedisKnownToBeStoppedIsStartedAsHavingNothingInMemory() throws Exception {
        Harness h = new Harness(dir, "p");
        h.host("p").stopRedis();

        RunSummary summary = h.run(playbook(""));

        StepResult restart = h.result("p", "restart_redis");
        assertThat(restart.status()).isEqualTo(StepStatus.CHANGED);
        assertThat(restart.message())
                .contains("Redis is not running (connection refused (fake); unit redis-server is inactive and"
                        + " nothing listens on port 6379): nothing in memory to lose");
        assertThat(summary.outcome()).isEqualTo(RunOutcome.OK);
    }

    /**
     * Issue 25: a save command the ACL user may not run, or that was renamed away, was found only when the restart
     * sent it, after the canary; it is refused before anything is written or saved, naming the command.
     */
    @Test
    void aRouteWhoseCommandsRedisRefusesIsRefusedBeforeItsFirstAction() throws Exception {
        Harness h = new Harness(dir, "p");
        h.host("p").redis().data().put("k1", "v1");
        h.host("p").redis().on("ACL", a -> switch (a.get(2)) {
            case "BGSAVE" -> "User default has no permissions to run the 'bgsave' command";
            case "SET" -> throw new RedisException("p", "ERR Command 'set' not found", null);
            default -> "OK";
        });

        h.run(playbook(""));

        StepResult restart = h.result("p", "restart_redis");
        assertThat(restart.status()).isEqualTo(StepStatus.FAILED);
        assertThat(restart.message())
                .contains("refused: Redis refuses commands this restart needs: set (renamed away),"
                        + " bgsave (NOPERM for user default): grant them to redis_user")
                .endsWith("Redis left running");
        assertThat(h.host("p").redis().commands()).noneMatch(c -> c.startsWith("SET") || c.startsWith("BGSAVE"));
        assertThat(h.host("p").redis().restarts()).isZero();
        assertThat(h.host("p").redis().data()).isEqualTo(Map.of("k1", "v1"));
    }

    @Test
    void aRedisThatRefusesConnectionsWhileItsUnitRunsIsNotTakenForDown() throws Exception {
        Harness h = new Harness(dir, "p");
        h.host("p").redis().data().put("k1", "v1");
        h.host("p").redis().kill();

        h.run(playbook(""));

        StepResult restart = h.result("p", "restart_redis");
        assertThat(restart.status()).isEqualTo(StepStatus.FAILED);
        assertThat(restart.message())
                .contains(
                        "refused: Redis did not answer as Redis (connection refused (fake), but unit redis-server is active"
                                + " and 1 sockets listen on port 6379)")
                .doesNotContain("nothing in memory");
        assertThat(h.host("p").redis().restarts()).isZero();
    }

    @Test
    void onAHostWithoutSystemdARedisItsInitScriptCallsStoppedIsStartedAsHavingNothingInMemory() throws Exception {
        Harness h = new Harness(dir, "p");
        h.host("p").sysv("redis-server").stopRedis();

        RunSummary summary = h.run(playbook(""));

        StepResult restart = h.result("p", "restart_redis");
        assertThat(restart.status()).isEqualTo(StepStatus.CHANGED);
        assertThat(restart.message())
                .contains("Redis is not running (connection refused (fake); unit redis-server is inactive and"
                        + " nothing listens on port 6379): nothing in memory to lose");
        assertThat(summary.outcome()).isEqualTo(RunOutcome.OK);
    }

    @Test
    void onAHostWithoutSystemdARedisThatRefusesConnectionsWhileItsInitScriptSaysRunningIsNotTakenForDown()
            throws Exception {
        Harness h = new Harness(dir, "p");
        h.host("p").sysv("redis-server").redis().data().put("k1", "v1");
        h.host("p").redis().kill();

        h.run(playbook(""));

        StepResult restart = h.result("p", "restart_redis");
        assertThat(restart.status()).isEqualTo(StepStatus.FAILED);
        assertThat(restart.message())
                .contains("but unit redis-server is active and 1 sockets listen on port 6379")
                .doesNotContain("nothing in memory");
        assertThat(h.host("p").redis().restarts()).isZero();
    }
}
