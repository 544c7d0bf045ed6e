package dev.fleetfix.lab;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.HashSet;
import java.util.List;
import java.util.OptionalInt;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** A machine whose own sshd or Redis holds the usual ports: the lab moves to the second choice. */
class LoopbackAddressesIT {
    @Test
    void busyPortsMoveTheLabHostToItsSecondChoice() throws Exception {
        Set<String> claimed = new HashSet<>();
        for (int fourth = 11; fourth < 250; fourth++) {
            claimed.add("127.0.0." + fourth);
        }
        InetAddress address = InetAddress.getByName("127.0.0.250");
        List<LabHostSpec> plain = List.of(LabHostSpec.named("lab-1"));
        try (ServerSocket ssh = new ServerSocket(22, 1, address);
                ServerSocket redis = new ServerSocket(6379, 1, address)) {
            assertThat(LoopbackAddresses.pick(plain, claimed))
                    .containsExactly(new LoopbackAddresses.Endpoint("127.0.0.250", 2222, 6380, OptionalInt.empty()));
        }
        assertThat(LoopbackAddresses.pick(plain, claimed))
                .containsExactly(new LoopbackAddresses.Endpoint("127.0.0.250", 22, 6379, OptionalInt.empty()));
    }

    @Test
    void aBusySentinelPortOrClusterBusMovesThoseToTheSecondChoice() throws Exception {
        Set<String> claimed = new HashSet<>();
        for (int fourth = 11; fourth < 249; fourth++) {
            claimed.add("127.0.0." + fourth);
        }
        InetAddress address = InetAddress.getByName("127.0.0.249");
        try (ServerSocket sentinel = new ServerSocket(26379, 1, address);
                ServerSocket clusterBus = new ServerSocket(16379, 1, address)) {
            assertThat(LoopbackAddresses.pick(List.of(LabHostSpec.named("lab-1").withSentinel()), claimed))
                    .containsExactly(new LoopbackAddresses.Endpoint("127.0.0.249", 22, 6379, OptionalInt.of(26380)));
            assertThat(LoopbackAddresses.pick(List.of(LabHostSpec.named("lab-1").withCluster()), claimed))
                    .containsExactly(new LoopbackAddresses.Endpoint("127.0.0.249", 22, 6380, OptionalInt.empty()));
        }
    }
}
