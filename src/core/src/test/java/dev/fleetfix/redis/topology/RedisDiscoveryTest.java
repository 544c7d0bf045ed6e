package dev.fleetfix.redis.topology;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fleetfix.fake.FakeRedis;
import dev.fleetfix.fake.TestHosts;
import dev.fleetfix.inventory.Host;
import dev.fleetfix.inventory.Inventory;
import dev.fleetfix.redis.RedisConnector;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class RedisDiscoveryTest {

    @Test
    void aHostWhoseQuestionCrashesIsUnknownAndTheOthersAreStillRead() {
        Host r1 = TestHosts.lab("r1", "127.0.0.21");
        Host r2 = TestHosts.lab("r2", "127.0.0.22");
        Inventory inventory = new Inventory(Optional.empty(), List.of(r1, r2), Map.of("all", List.of("r1", "r2")));
        FakeRedis healthy = FakeRedis.redis7();
        RedisConnector crashingOnR2 = (host, timeout) -> {
            if (host.name().equals("r2")) {
                throw new StackOverflowError();
            }
            return healthy.connect(host, timeout);
        };

        Topology topology =
                new RedisDiscovery(inventory, crashingOnR2, Duration.ofSeconds(1), 2).discover(List.of(r1, r2));

        assertThat(topology.node("r2").orElseThrow().role()).isEqualTo(NodeRole.UNKNOWN);
        assertThat(topology.node("r2").orElseThrow().error()).contains("internal error: StackOverflowError");
        assertThat(topology.node("r1").orElseThrow().role()).isEqualTo(NodeRole.PRIMARY);
        assertThat(topology.node("r1").orElseThrow().error()).isEmpty();
    }
}
