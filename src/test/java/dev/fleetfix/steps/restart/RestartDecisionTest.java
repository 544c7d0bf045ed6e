package dev.fleetfix.steps.restart;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fleetfix.rollout.topology.NodeState;
import dev.fleetfix.rollout.topology.ReplicaLink;
import dev.fleetfix.rollout.topology.SentinelMaster;
import dev.fleetfix.steps.restart.RestartDecision.Kind;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class RestartDecisionTest {
    private static final String ONLINE = "ip=10.0.0.2,port=6379,state=online,offset=500,lag=0";

    private static RedisSnapshot primary(boolean rdb, boolean aof, String version, String... replicas) {
        return primary(rdb, aof, version, false, replicas);
    }

    private static RedisSnapshot primary(
            boolean rdb, boolean aof, String version, boolean cluster, String... replicas) {
        Map<String, String> info = new LinkedHashMap<>(Map.of("role", "master", "master_repl_offset", "500"));
        for (int i = 0; i < replicas.length; i++) {
            info.put("slave" + i, replicas[i]);
        }
        NodeState state = NodeState.fromInfo("p", info);
        List<ReplicaLink> named = state.replicas().stream()
                .map(r -> r.withHost(Optional.of("r" + r.ip().charAt(r.ip().length() - 1))))
                .toList();
        NodeState withHosts = new NodeState(
                "p", state.role(), Optional.empty(), Optional.empty(), false, 500, named, Optional.empty());
        return new RedisSnapshot(true, withHosts, Optional.empty(), 0, rdb, aof, version, Map.of(), cluster);
    }

    private static RedisSnapshot replica(String link, boolean rdb) {
        NodeState state = NodeState.fromInfo(
                "r",
                Map.of("role", "slave", "master_host", "10.0.0.1", "master_port", "6379", "master_link_status", link));
        return new RedisSnapshot(true, state, Optional.of("10.0.0.1"), 6379, rdb, false, "7.0.15", Map.of(), false);
    }

    private static RestartOptions options(boolean failover, boolean allowDataLoss) {
        return new RestartOptions(true, failover, false, allowDataLoss, true, Duration.ofSeconds(30));
    }

    private static final RestartOptions DEFAULTS = options(true, false);
    private static final SentinelMaster WATCHED = new SentinelMaster("cache", "10.0.0.1", 6379, "master", 1, 2, 2);

    @Test
    void aPrimaryWithAnInSyncReplicaFailsOverToIt() {
        RestartDecision d = RestartDecision.decide(primary(false, false, "7.0.15", ONLINE), DEFAULTS);
        assertThat(d.kind()).isEqualTo(Kind.FAILOVER_THEN_RESTART);
        assertThat(d.handover()).map(Handover::route).contains(Handover.Route.FAILOVER);
        assertThat(d.handover().flatMap(Handover::target)).map(ReplicaLink::ip).contains("10.0.0.2");
        assertThat(d.reason()).contains("fail over to r2 (10.0.0.2:6379)");
    }

    @Test
    void aReplicaRestartsInPlace() {
        assertThat(RestartDecision.decide(replica("up", false), DEFAULTS).kind())
                .isEqualTo(Kind.RESTART);
    }

    @Test
    void aReplicaCutFromItsPrimaryMayHoldTheOnlyCopy() {
        assertThat(RestartDecision.decide(replica("down", true), DEFAULTS).kind())
                .isEqualTo(Kind.SAVE_THEN_RESTART);
        RestartDecision refused = RestartDecision.decide(replica("down", false), DEFAULTS);
        assertThat(refused.kind()).isEqualTo(Kind.REFUSE);
        assertThat(refused.reason()).contains("may hold the only copy");
    }

    @Test
    void aPrimaryWithoutReplicaIsSavedFirstWithPersistence() {
        RestartDecision rdb = RestartDecision.decide(primary(true, false, "7.0.15"), DEFAULTS);
        assertThat(rdb.kind()).isEqualTo(Kind.SAVE_THEN_RESTART);
        assertThat(rdb.reason()).isEqualTo("primary, no replica: BGSAVE first (save points)");
        assertThat(RestartDecision.decide(primary(false, true, "7.0.15"), DEFAULTS)
                        .reason())
                .contains("BGREWRITEAOF first (appendonly)");
    }

    @Test
    void aPrimaryWithoutPersistenceNorReplicaIsRefusedUnlessDataLossIsAllowed() {
        RestartDecision refused = RestartDecision.decide(primary(false, false, "7.0.15"), DEFAULTS);
        assertThat(refused.kind()).isEqualTo(Kind.REFUSE);
        assertThat(refused.reason())
                .isEqualTo("refused: primary, no replica, and no persistence (save \"\", appendonly no): a restart"
                        + " would lose the data set; set allow_data_loss: true to restart anyway");
        assertThat(RestartDecision.decide(primary(false, false, "7.0.15"), options(true, true))
                        .kind())
                .isEqualTo(Kind.RESTART);
    }

    @Test
    void aReplicaOutOfSyncIsNoFailoverTarget() {
        String lagging = "ip=10.0.0.2,port=6379,state=online,offset=100,lag=30";
        String syncing = "ip=10.0.0.3,port=6379,state=wait_bgsave,offset=0,lag=0";
        RestartDecision noPersistence =
                RestartDecision.decide(primary(false, false, "7.0.15", lagging, syncing), DEFAULTS);
        assertThat(noPersistence.kind()).isEqualTo(Kind.REFUSE);
        assertThat(noPersistence.reason())
                .contains("no replica in sync (r2 (10.0.0.2:6379) online lag 30s, r3 (10.0.0.3:6379) wait_bgsave");
        assertThat(RestartDecision.decide(primary(true, false, "7.0.15", lagging), DEFAULTS)
                        .kind())
                .isEqualTo(Kind.SAVE_THEN_RESTART);
    }

    @Test
    void noFailoverWhenNever() {
        assertThat(RestartDecision.decide(primary(true, false, "7.0.15", ONLINE), options(false, false))
                        .reason())
                .contains("failover off (failover: never)");
        // Without failover and without persistence, the replicas would resync an empty data set.
        assertThat(RestartDecision.decide(primary(false, false, "7.0.15", ONLINE), options(false, false))
                        .kind())
                .isEqualTo(Kind.REFUSE);
    }

    @Test
    void aPrimarySentinelWatchesFailsOverThroughSentinelEvenOnOldRedis() {
        RestartDecision d = RestartDecision.decide(
                primary(false, false, "5.0.7", ONLINE), DEFAULTS, SentinelStatus.managedAs(WATCHED));
        assertThat(d.kind()).isEqualTo(Kind.FAILOVER_THEN_RESTART);
        assertThat(d.handover()).map(Handover::describe).contains("SENTINEL FAILOVER cache");
        assertThat(d.reason()).contains("primary 'cache' at 10.0.0.1:6379 (quorum 2 of 3 sentinels)");
    }

    @Test
    void aPrimarySentinelReportsDownOrFailingOverIsLeftAlone() {
        SentinelMaster failing = new SentinelMaster("cache", "10.0.0.1", 6379, "master,failover_in_progress", 1, 2, 2);
        RestartDecision d = RestartDecision.decide(
                primary(true, false, "7.0.15", ONLINE), DEFAULTS, SentinelStatus.managedAs(failing));
        assertThat(d.kind()).isEqualTo(Kind.REFUSE);
        assertThat(d.reason()).contains("failover_in_progress").contains("wait until Sentinel is done");
    }

    @Test
    void unreachableSentinelsRefuseAFailoverButNotASaveOrAReplica() {
        SentinelStatus unknown = SentinelStatus.unknown("no sentinel answered: connection refused");
        RestartDecision d = RestartDecision.decide(primary(true, false, "7.0.15", ONLINE), DEFAULTS, unknown);
        assertThat(d.kind()).isEqualTo(Kind.REFUSE);
        assertThat(d.reason()).contains("whether Sentinel manages it is unknown");
        assertThat(RestartDecision.decide(primary(true, false, "7.0.15"), DEFAULTS, unknown)
                        .kind())
                .isEqualTo(Kind.SAVE_THEN_RESTART);
        assertThat(RestartDecision.decide(replica("up", false), DEFAULTS, unknown)
                        .kind())
                .isEqualTo(Kind.RESTART);
    }

    @Test
    void aClusterPrimaryFailsOverWithClusterFailoverOnItsReplica() {
        RestartDecision d = RestartDecision.decide(primary(true, false, "7.0.15", true, ONLINE), DEFAULTS);
        assertThat(d.kind()).isEqualTo(Kind.FAILOVER_THEN_RESTART);
        assertThat(d.handover()).map(Handover::describe).contains("CLUSTER FAILOVER on r2 (10.0.0.2:6379)");
        assertThat(RestartDecision.decide(primary(true, false, "7.0.15", true), DEFAULTS)
                        .reason())
                .isEqualTo("primary, no replica: BGSAVE first (save points)");
    }

    @Test
    void aRedisThatDoesNotAnswerIsRestarted() {
        assertThat(RestartDecision.decide(RedisSnapshot.down("p", "connection refused"), DEFAULTS)
                        .kind())
                .isEqualTo(Kind.RESTART);
    }

    @Test
    void readsKeyspace() {
        assertThat(RedisSnapshot.keyspace(Map.of("db0", "keys=10,expires=2,avg_ttl=5", "db3", "keys=1,expires=0")))
                .containsEntry(0, new RedisSnapshot.KeyCount(10, 2))
                .containsEntry(3, new RedisSnapshot.KeyCount(1, 0));
    }
}
