package dev.fleetfix.redis;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class ClusterNodeTest {
    // CLUSTER NODES of a three-node lab cluster (Redis 7.0.15), after a failover of the first shard.
    private static final String NODES =
            """
            6a2e8bb3984401c59e99a9ed6731375853acb33e 127.0.0.12:6379@16379 myself,master - 0 0 2 connected 0-8191
            b3daf81b095cd92ad3247200b15dc042d1e5a35f 127.0.0.11:6379@16379 slave 6a2e8bb3984401c59e99a9ed6731375853acb33e 0 1796016009798 2 connected
            c41f0e3a9d4b6e71b0aa5b1c7f1e2a4d9c8b7a60 127.0.0.13:6379@16379,lab-3 master,fail? - 1796016000000 1796015990000 3 disconnected 8192-16383 [16000->-b3daf81b]
            """;

    @Test
    void readsRolesAddressesAndSlots() {
        List<ClusterNode> nodes = ClusterNode.parseAll(NODES);
        assertThat(nodes).hasSize(3);
        ClusterNode me = nodes.get(0);
        assertThat(me.myself()).isTrue();
        assertThat(me.primary()).isTrue();
        assertThat(me.address()).isEqualTo("127.0.0.12:6379");
        assertThat(me.slotCount()).isEqualTo(8192);
        assertThat(me.serves(0)).isTrue();
        assertThat(me.serves(8192)).isFalse();

        ClusterNode replica = nodes.get(1);
        assertThat(replica.primary()).isFalse();
        assertThat(replica.primaryId()).contains(me.id());
        assertThat(replica.connected()).isTrue();
        assertThat(replica.slotCount()).isZero();

        ClusterNode third = nodes.get(2);
        assertThat(third.ip()).isEqualTo("127.0.0.13");
        assertThat(third.failing()).isTrue();
        assertThat(third.connected()).isFalse();
        assertThat(third.slotText()).isEqualTo("8192-16383");
    }

    @Test
    void ignoresBlankAndShortLines() {
        assertThat(ClusterNode.parseAll("\n  \nnot a node line\n")).isEmpty();
        assertThat(ClusterNode.parseAll(null)).isEmpty();
    }
}
