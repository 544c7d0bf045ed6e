package dev.fleetfix.steps.restart;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fleetfix.redis.topology.NodeState;
import dev.fleetfix.redis.topology.ReplicaLink;
import dev.fleetfix.steps.restart.RestartDecision.Kind;
import dev.fleetfix.steps.restart.handover.Handover;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The route a primary of each Redis era takes when it has an in-sync replica and no Sentinel. */
class ManualHandoverDecisionTest {
    private static final String ONLINE = "ip=10.0.0.2,port=6379,state=online,offset=500,lag=0";

    private static RedisSnapshot primary(boolean rdb, String version) {
        NodeState state =
                NodeState.fromInfo("p", Map.of("role", "master", "master_repl_offset", "500", "slave0", ONLINE));
        List<ReplicaLink> named = state.replicas().stream()
                .map(r -> r.withHost(Optional.of("r2")))
                .toList();
        NodeState withHosts = new NodeState(
                "p", state.role(), Optional.empty(), Optional.empty(), false, 500, named, Optional.empty());
        Persistence persistence = Persistence.known(rdb, false, Persistence.CONFIG_GET);
        return new RedisSnapshot(true, false, withHosts, Optional.empty(), 0, persistence, version, Map.of(), false);
    }

    private static RestartOptions options(boolean manual) {
        return new RestartOptions(true, true, false, false, true, Duration.ofSeconds(30), manual);
    }

    @Test
    void redis30To60IsHandedOverByHand() {
        for (String version : List.of("3.0.7", "4.0.14", "5.0.14", "6.0.16")) {
            RestartDecision d = RestartDecision.decide(primary(false, version), options(false));
            assertThat(d.kind()).as(version).isEqualTo(Kind.FAILOVER_THEN_RESTART);
            assertThat(d.handover()).map(Handover::route).contains(Handover.Route.MANUAL);
            assertThat(d.reason())
                    .isEqualTo("primary, Redis " + version + " has no FAILOVER (6.2+): hand over by hand to"
                            + " r2 (10.0.0.2:6379) (online, lag 0s) first (CLIENT PAUSE, wait for its offset,"
                            + " SLAVEOF NO ONE)");
        }
    }

    @Test
    void redis62AndLaterUseFailoverUnlessManualIsAsked() {
        assertThat(RestartDecision.decide(primary(false, "6.2.11"), options(false))
                        .handover()
                        .map(Handover::route))
                .contains(Handover.Route.FAILOVER);
        RestartDecision manual = RestartDecision.decide(primary(false, "6.2.11"), options(true));
        assertThat(manual.handover().map(Handover::route)).contains(Handover.Route.MANUAL);
        assertThat(manual.reason()).startsWith("primary, failover: manual: hand over by hand to r2");
    }

    @Test
    void redis28CannotPauseWritesSoItIsSavedInsteadWithPersistence() {
        RestartDecision d = RestartDecision.decide(primary(true, "2.8.19"), options(false));
        assertThat(d.kind()).isEqualTo(Kind.SAVE_THEN_RESTART);
        assertThat(d.reason())
                .isEqualTo("primary, Redis 2.8.19 has neither FAILOVER (6.2+) nor CLIENT PAUSE (3.0+) to stop writes"
                        + " during a hand-over; no failover: BGSAVE first (save points)");
    }

    @Test
    void redis28WhoseReplicaIsListedAtAnUnknownAddressIsRefusedForItsVersionNotForAnAnnounceSetting() {
        // 2.8 has no slave-announce-ip: its replicas show at the address they connect from
        NodeState state =
                NodeState.fromInfo("p", Map.of("role", "master", "master_repl_offset", "500", "slave0", ONLINE));
        Persistence persistence = Persistence.known(true, false, Persistence.CONFIG_GET);
        RedisSnapshot old =
                new RedisSnapshot(true, false, state, Optional.empty(), 0, persistence, "2.8.19", Map.of(), false);

        for (boolean manual : List.of(false, true)) {
            RestartDecision d = RestartDecision.decide(old, options(manual));
            assertThat(d.kind()).isEqualTo(Kind.SAVE_THEN_RESTART);
            assertThat(d.reason())
                    .as("failover: " + (manual ? "manual" : "auto"))
                    .isEqualTo("primary, Redis 2.8.19 has neither FAILOVER (6.2+) nor CLIENT PAUSE (3.0+) to stop"
                            + " writes during a hand-over; no failover: BGSAVE first (save points)")
                    .doesNotContain("announce");
        }
        // from 3.0 the listing is what stops it, and the advice names the setting of each era
        RedisSnapshot v5 =
                new RedisSnapshot(true, false, state, Optional.empty(), 0, persistence, "5.0.14", Map.of(), false);
        assertThat(RestartDecision.decide(v5, options(false)).reason())
                .contains("listed by addresses not in the inventory (10.0.0.2:6379")
                .contains("replica-announce-ip (5.0+; slave-announce-ip from 4.0) or bind-source-addr (7.0+)");
    }

    @Test
    void redis28WithoutPersistenceIsRefusedAndSaysWhy() {
        RestartDecision d = RestartDecision.decide(primary(false, "2.8.19"), options(false));
        assertThat(d.kind()).isEqualTo(Kind.REFUSE);
        assertThat(d.reason())
                .startsWith("refused: primary, Redis 2.8.19 has neither FAILOVER (6.2+) nor CLIENT PAUSE (3.0+)")
                .endsWith("set allow_data_loss: true to restart anyway");
    }

    @Test
    void anUnreadableVersionIsNoGroundForAHandover() {
        RestartDecision d = RestartDecision.decide(primary(true, "?"), options(false));
        assertThat(d.kind()).isEqualTo(Kind.SAVE_THEN_RESTART);
        assertThat(d.reason()).contains("its Redis version could not be read (redis_version:?)");
    }
}
