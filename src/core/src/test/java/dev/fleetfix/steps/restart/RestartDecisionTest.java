package dev.fleetfix.steps.restart;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fleetfix.redis.topology.NodeState;
import dev.fleetfix.redis.topology.ReplicaLink;
import dev.fleetfix.redis.topology.SentinelMaster;
import dev.fleetfix.steps.restart.RestartDecision.Kind;
import dev.fleetfix.steps.restart.handover.Handover;
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
        return primary(withHosts, Persistence.known(rdb, aof, "CONFIG GET save"), version, cluster);
    }

    private static RedisSnapshot primary(NodeState state, Persistence persistence, String version, boolean cluster) {
        return new RedisSnapshot(true, false, state, Optional.empty(), 0, persistence, version, Map.of(), cluster);
    }

    private static RedisSnapshot replica(String link, boolean rdb) {
        NodeState state = NodeState.fromInfo(
                "r",
                Map.of("role", "slave", "master_host", "10.0.0.1", "master_port", "6379", "master_link_status", link));
        return new RedisSnapshot(
                true,
                false,
                state,
                Optional.of("10.0.0.1"),
                6379,
                Persistence.known(rdb, false, "CONFIG GET save"),
                "7.0.15",
                Map.of(),
                false);
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

    /** CONFIG renamed away and the config file unreadable: whether save points are set is unknown. */
    private static final Persistence SAVE_UNKNOWN = new Persistence(
            Optional.empty(),
            Optional.of(false),
            "",
            Optional.of("CONFIG GET save refused (unknown command: renamed away) and cannot read"
                    + " /etc/redis/redis.conf over SSH (exit 1: Permission denied)"));

    private static RedisSnapshot alone(Persistence persistence) {
        NodeState state = NodeState.fromInfo("p", Map.of("role", "master", "master_repl_offset", "500"));
        return primary(state, persistence, "7.0.15", false);
    }

    @Test
    void aRedisKnownNotToRunIsRestarted() {
        RestartDecision d = RestartDecision.decide(
                RedisSnapshot.down(
                        "p", "connection refused; unit redis-server is inactive and nothing listens on port 6379"),
                DEFAULTS);
        assertThat(d.kind()).isEqualTo(Kind.RESTART);
        assertThat(d.reason())
                .isEqualTo("Redis is not running (connection refused; unit redis-server is inactive and nothing"
                        + " listens on port 6379): nothing in memory to lose");
    }

    @Test
    void aRedisThatDidNotAnswerButMayRunIsRefusedNamingTheEndpointNotDataLoss() {
        for (String why : List.of(
                "no answer within 3000 ms",
                "protocol error: a reply of 2000000000 elements",
                "connection refused, but unit redis-server is active and 1 sockets listen on port 6379")) {
            RestartDecision d = RestartDecision.decide(RedisSnapshot.unknown("p", why), DEFAULTS);
            assertThat(d.kind()).as(why).isEqualTo(Kind.REFUSE);
            assertThat(d.reason())
                    .contains("refused: Redis did not answer as Redis (" + why + ")")
                    .contains("whether it runs with data in memory is unknown")
                    .contains("check that redis_host / redis_port name this host's Redis")
                    .doesNotContain("allow_data_loss")
                    .doesNotContain("nothing in memory");
            // a wedged Redis whose data the operator gave up is restarted, as documented
            assertThat(RestartDecision.decide(RedisSnapshot.unknown("p", why), options(true, true))
                            .kind())
                    .isEqualTo(Kind.RESTART);
        }
    }

    @Test
    void aRedisAtItsMaxClientsIsRefusedSayingSoAndWhatToDoNotPointingAtTheAddress() {
        String why = "127.0.0.1:6379: Redis refused the connection, its maxclients is reached: ERR max number of"
                + " clients reached";
        for (RestartOptions o : List.of(DEFAULTS, options(true, true))) {
            RestartDecision d = RestartDecision.decide(RedisSnapshot.serverFull("p", why), o);
            assertThat(d.kind()).isEqualTo(Kind.REFUSE);
            assertThat(d.reason())
                    .contains("Redis runs but refused fleetfix's connection, its max number of clients is reached")
                    .contains(why)
                    .contains("raise maxclients")
                    .doesNotContain("did not answer as Redis")
                    .doesNotContain("redis_host");
        }
    }

    @Test
    void aRedisThatRefusedTheCredentialsIsRefusedPointingAtThemEvenWithDataLossAllowed() {
        String why = "authentication failed: WRONGPASS invalid username-password pair";
        for (RestartOptions o : List.of(DEFAULTS, options(true, true))) {
            RestartDecision d = RestartDecision.decide(RedisSnapshot.credentialsRefused("p", why), o);
            assertThat(d.kind()).isEqualTo(Kind.REFUSE);
            assertThat(d.reason())
                    .isEqualTo("refused: redis auth failed (" + why + "): check redis_password / redis_user");
        }
    }

    @Test
    void aPrimaryWhoseSavePointsCannotBeReadIsRefusedNamingTheFact() {
        RestartDecision d = RestartDecision.decide(alone(SAVE_UNKNOWN), DEFAULTS);
        assertThat(d.kind()).isEqualTo(Kind.REFUSE);
        assertThat(d.reason())
                .contains("refused: primary, no replica")
                .contains("CONFIG GET save refused (unknown command: renamed away)")
                .contains("cannot read /etc/redis/redis.conf")
                .contains("whether a restart would lose the data set cannot be told");
        assertThat(RestartDecision.decide(alone(SAVE_UNKNOWN), options(true, true))
                        .kind())
                .isEqualTo(Kind.RESTART);
    }

    @Test
    void aofOnIsEnoughWhateverSaveIs() {
        Persistence aofOnly = new Persistence(Optional.empty(), Optional.of(true), "", Optional.of("save unknown"));
        RestartDecision d = RestartDecision.decide(alone(aofOnly), DEFAULTS);
        assertThat(d.kind()).isEqualTo(Kind.SAVE_THEN_RESTART);
        assertThat(d.reason()).contains("BGREWRITEAOF first");
    }

    @Test
    void noFailoverRouteWhenCONFIGIsRefusedSinceTheNewRolesCouldNotBeWrittenDown() {
        NodeState state = primary(false, false, "7.0.15", ONLINE).replication();
        Persistence fromFile = Persistence.known(
                true, false, "config file /etc/redis/redis.conf (CONFIG is disabled there: save 900 1)");
        RestartDecision d = RestartDecision.decide(primary(state, fromFile, "7.0.15", false), DEFAULTS);
        assertThat(d.kind()).isEqualTo(Kind.SAVE_THEN_RESTART);
        assertThat(d.reason()).startsWith("primary, and FAILOVER needs CONFIG REWRITE to keep the new roles");
        // Sentinel rewrites the configs itself: its route stays open.
        assertThat(RestartDecision.decide(
                                primary(state, fromFile, "7.0.15", false), DEFAULTS, SentinelStatus.managedAs(WATCHED))
                        .kind())
                .isEqualTo(Kind.FAILOVER_THEN_RESTART);
    }

    @Test
    void savePointsWithAofUnknownAreNotEnough() {
        // Redis loads the AOF rather than the RDB when appendonly is on: a BGSAVE then proves nothing.
        Persistence rdbAofUnknown = new Persistence(
                Optional.of(true), Optional.empty(), "CONFIG GET save", Optional.of("aof_enabled missing"));
        assertThat(RestartDecision.decide(alone(rdbAofUnknown), DEFAULTS).kind())
                .isEqualTo(Kind.REFUSE);
    }

    @Test
    void savePointsReadFromTheConfigFileAreUsed() {
        Persistence fromFile = Persistence.known(
                true, false, "config file /etc/redis/redis.conf (CONFIG is disabled there: save 900 1)");
        RestartDecision d = RestartDecision.decide(alone(fromFile), DEFAULTS);
        assertThat(d.kind()).isEqualTo(Kind.SAVE_THEN_RESTART);
        assertThat(d.reason())
                .isEqualTo("primary, no replica: BGSAVE first (save points (config file /etc/redis/redis.conf"
                        + " (CONFIG is disabled there: save 900 1)))");
    }

    @Test
    void aReplicaCutFromItsPrimaryWithUnknownPersistenceIsRefused() {
        NodeState state = NodeState.fromInfo(
                "r",
                Map.of(
                        "role",
                        "slave",
                        "master_host",
                        "10.0.0.1",
                        "master_port",
                        "6379",
                        "master_link_status",
                        "down"));
        RedisSnapshot s = new RedisSnapshot(
                true, false, state, Optional.of("10.0.0.1"), 6379, SAVE_UNKNOWN, "7.0.15", Map.of(), false);
        RestartDecision d = RestartDecision.decide(s, DEFAULTS);
        assertThat(d.kind()).isEqualTo(Kind.REFUSE);
        assertThat(d.reason()).contains("may hold the only copy").contains("CONFIG GET save refused");
    }

    @Test
    void readsKeyspace() {
        assertThat(RedisSnapshot.keyspace(Map.of("db0", "keys=10,expires=2,avg_ttl=5", "db3", "keys=1,expires=0")))
                .containsEntry(0, new RedisSnapshot.KeyCount(10, 2))
                .containsEntry(3, new RedisSnapshot.KeyCount(1, 0));
    }
}
