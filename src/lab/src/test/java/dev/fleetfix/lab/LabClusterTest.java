package dev.fleetfix.lab;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class LabClusterTest {
    @Test
    void slotsSplitEvenlyAndCoverAll16384() {
        assertThat(LabCluster.slotRanges(1)).containsExactly(new LabCluster.SlotRange(0, 16383));
        assertThat(LabCluster.slotRanges(3))
                .containsExactly(
                        new LabCluster.SlotRange(0, 5460),
                        new LabCluster.SlotRange(5461, 10921),
                        new LabCluster.SlotRange(10922, 16383));
        for (int primaries = 1; primaries <= 25; primaries++) {
            List<LabCluster.SlotRange> ranges = LabCluster.slotRanges(primaries);
            int next = 0;
            for (LabCluster.SlotRange range : ranges) {
                assertThat(range.first()).isEqualTo(next);
                assertThat(range.last() - range.first() + 1).isBetween(16384 / primaries, 16384 / primaries + 1);
                next = range.last() + 1;
            }
            assertThat(next).isEqualTo(16384);
        }
        assertThatThrownBy(() -> LabCluster.slotRanges(0)).hasMessageContaining("was 0");
    }

    @Test
    void readsRedisCliReplies() {
        assertThat(LabRedisCli.fields("cluster_state:ok\r\ncluster_known_nodes:3\r\n"))
                .containsEntry("cluster_state", "ok")
                .containsEntry("cluster_known_nodes", "3");
        assertThat(LabRedisCli.pairs("name\nlab\nip\n127.0.0.11\nnum-slaves\n2\n"))
                .containsEntry("name", "lab")
                .containsEntry("ip", "127.0.0.11")
                .containsEntry("num-slaves", "2");
        assertThat(LabRedisCli.command("127.0.0.11", 6379, java.util.Optional.of("p w"), "ping"))
                .isEqualTo("REDISCLI_AUTH='p w' redis-cli -h 127.0.0.11 -p 6379 ping");
    }
}
