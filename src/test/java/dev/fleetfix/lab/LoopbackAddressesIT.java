package dev.fleetfix.lab;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.HashSet;
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
        try (ServerSocket ssh = new ServerSocket(22, 1, address);
                ServerSocket redis = new ServerSocket(6379, 1, address)) {
            assertThat(LoopbackAddresses.pick(1, claimed))
                    .containsExactly(new LoopbackAddresses.Endpoint("127.0.0.250", 2222, 6380));
        }
        assertThat(LoopbackAddresses.pick(1, claimed))
                .containsExactly(new LoopbackAddresses.Endpoint("127.0.0.250", 22, 6379));
    }
}
