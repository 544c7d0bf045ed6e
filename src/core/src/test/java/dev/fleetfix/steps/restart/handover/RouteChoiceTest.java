package dev.fleetfix.steps.restart.handover;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fleetfix.redis.RedisServer;
import dev.fleetfix.redis.RedisVersion;
import dev.fleetfix.redis.topology.ReplicaLink;
import dev.fleetfix.redis.topology.SentinelMaster;
import dev.fleetfix.steps.restart.handover.Handover.Route;
import dev.fleetfix.steps.restart.handover.RouteChoice.Choice;
import dev.fleetfix.steps.restart.handover.RouteChoice.Chosen;
import dev.fleetfix.steps.restart.handover.RouteChoice.Facts;
import dev.fleetfix.steps.restart.handover.RouteChoice.NoRoute;
import dev.fleetfix.steps.restart.handover.RouteChoice.Refused;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Known facts in, the route (or why none) out: {@link RouteChoice} without any I/O. */
class RouteChoiceTest {
    private static final ReplicaLink R2 = new ReplicaLink("10.0.0.2", 6379, "online", 500, 0, Optional.of("r2"));
    private static final SentinelMaster WATCHED = new SentinelMaster("cache", "10.0.0.1", 6379, "master", 1, 2, 2);

    /** A primary of {@code version} with one in-sync replica in the inventory, no cluster, no Sentinel. */
    private static Facts primary(String version) {
        return new Facts(
                R2,
                1,
                false,
                Optional.empty(),
                Optional.empty(),
                false,
                version,
                RedisVersion.find(version).map(RedisServer::redis),
                true);
    }

    private static Optional<Route> route(Choice c) {
        return c instanceof Chosen chosen ? Optional.of(chosen.handover().route()) : Optional.empty();
    }

    @Test
    void eachEraAndTopologyGetsItsRoute() {
        assertThat(route(RouteChoice.choose(primary("7.2.4")))).contains(Route.FAILOVER);
        assertThat(route(RouteChoice.choose(primary("6.2.0")))).contains(Route.FAILOVER);
        assertThat(route(RouteChoice.choose(primary("6.0.16")))).contains(Route.MANUAL);
        assertThat(route(RouteChoice.choose(primary("3.0.7")))).contains(Route.MANUAL);
        Facts f = primary("7.2.4");
        Facts cluster =
                new Facts(R2, 1, true, Optional.of(WATCHED), Optional.empty(), false, "7.2.4", f.commands(), true);
        assertThat(route(RouteChoice.choose(cluster)))
                .as("cluster mode wins over all")
                .contains(Route.CLUSTER);
        Facts sentinel =
                new Facts(R2, 1, false, Optional.of(WATCHED), Optional.empty(), true, "7.2.4", f.commands(), false);
        assertThat(route(RouteChoice.choose(sentinel)))
                .as("Sentinel wins over manual")
                .contains(Route.SENTINEL);
        Facts manual = new Facts(R2, 1, false, Optional.empty(), Optional.empty(), true, "7.2.4", f.commands(), true);
        assertThat(route(RouteChoice.choose(manual))).contains(Route.MANUAL);
    }

    @Test
    void theChosenRouteNamesItsTargetAndSaysWhy() {
        Chosen c = (Chosen) RouteChoice.choose(primary("7.2.4"));
        assertThat(c.handover().target()).contains(R2);
        assertThat(c.handover().describe()).isEqualTo("FAILOVER TO r2 (10.0.0.2:6379)");
        assertThat(c.handover().newPrimaryName()).isEqualTo("r2");
        assertThat(c.reason()).isEqualTo("primary: fail over to r2 (10.0.0.2:6379) (online, lag 0s) first");
        Facts f = primary("7.2.4");
        Chosen s = (Chosen) RouteChoice.choose(
                new Facts(R2, 1, false, Optional.of(WATCHED), Optional.empty(), false, "7.2.4", f.commands(), true));
        assertThat(s.handover().target()).as("Sentinel picks its own").isEmpty();
        assertThat(s.handover().newPrimaryName()).isEqualTo("cache");
    }

    @Test
    void noRouteOrARefusalWhenNoneIsSafe() {
        Facts f = primary("7.2.4");
        assertThat(RouteChoice.choose(primary("2.8.24")))
                .isEqualTo(new NoRoute("primary, " + RouteChoice.cannotPause("2.8.24")));
        assertThat(RouteChoice.choose(primary("unknown"))).isInstanceOf(NoRoute.class);
        assertThat(RouteChoice.choose(new Facts(
                        R2, 1, false, Optional.empty(), Optional.empty(), false, "7.2.4", f.commands(), false)))
                .as("FAILOVER without CONFIG REWRITE")
                .isInstanceOf(NoRoute.class);
        assertThat(RouteChoice.choose(new Facts(
                        R2,
                        1,
                        false,
                        Optional.empty(),
                        Optional.of("none answered"),
                        false,
                        "7.2.4",
                        f.commands(),
                        true)))
                .isInstanceOf(Refused.class);
        SentinelMaster troubled = new SentinelMaster("cache", "10.0.0.1", 6379, "master,s_down", 1, 2, 2);
        assertThat(RouteChoice.choose(new Facts(
                        R2, 1, false, Optional.of(troubled), Optional.empty(), false, "7.2.4", f.commands(), true)))
                .isInstanceOf(Refused.class);
    }

    @Test
    void onlyTheFailoverAndManualRoutesAreFailedBackAfterACrash() {
        assertThat(RouteChoice.resumed(Route.FAILOVER, R2).map(Handover::route)).contains(Route.FAILOVER);
        assertThat(RouteChoice.resumed(Route.MANUAL, R2).map(Handover::route)).contains(Route.MANUAL);
        assertThat(RouteChoice.resumed(Route.SENTINEL, R2)).isEmpty();
        assertThat(RouteChoice.resumed(Route.CLUSTER, R2)).isEmpty();
    }
}
