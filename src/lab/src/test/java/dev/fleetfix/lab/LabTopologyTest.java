package dev.fleetfix.lab;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class LabTopologyTest {
    @Test
    void sentinelsMonitorTheHostOthersReplicateFromWithAMajorityQuorum() {
        LabTopology topology = LabTopology.of(LabPreset.SENTINEL.specs(4));

        assertThat(topology.sentinelPrimary()).contains("lab-1");
        assertThat(topology.sentinels()).containsExactly("lab-1", "lab-2", "lab-3", "lab-4");
        assertThat(topology.quorum()).isEqualTo(3);
        assertThat(topology.replicasOf("lab-1")).containsExactly("lab-2", "lab-3", "lab-4");
        assertThat(LabTopology.of(LabPreset.SENTINEL.specs(3)).quorum()).isEqualTo(2);
        assertThat(LabTopology.of(LabPreset.REPLICATED.specs(3)).sentinelPrimary())
                .isEmpty();
    }

    @Test
    void clusterPrimariesAreTheClusterHostsWithoutReplicaOf() {
        LabTopology topology = LabTopology.of(LabPreset.CLUSTER.specs(3));

        assertThat(topology.clusterNodes()).containsExactly("lab-1", "lab-2", "lab-3");
        assertThat(topology.clusterPrimaries()).containsExactly("lab-1", "lab-3");
        assertThat(topology.clusterReplicas()).containsExactly("lab-2");
        assertThat(LabTopology.of(LabPreset.REPLICATED.specs(2)).clusterNodes()).isEmpty();
    }

    @Test
    void rejectsDuplicateNamesAndUnknownPrimaries() {
        assertThatThrownBy(() -> LabTopology.of(List.of(LabHostSpec.named("a"), LabHostSpec.named("a"))))
                .hasMessageContaining("'a' is twice");
        assertThatThrownBy(() -> LabTopology.of(List.of(LabHostSpec.named("a").withReplicaOf("b"))))
                .hasMessageContaining("host a: replicaOf names no lab host: 'b'");
        assertThatThrownBy(() -> LabTopology.of(List.of())).hasMessageContaining("was 0");
    }

    @Test
    void rejectsReplicationBetweenClusterAndPlainRedis() {
        assertThatThrownBy(() -> LabTopology.of(List.of(
                        LabHostSpec.named("a").withCluster(),
                        LabHostSpec.named("b").withReplicaOf("a"))))
                .hasMessageContaining("host b: replicaOf 'a' mixes cluster and non-cluster Redis")
                .hasMessageContaining("b cluster=false, a cluster=true");
    }

    @Test
    void rejectsAClusterReplicaOfAReplica() {
        assertThatThrownBy(() -> LabTopology.of(List.of(
                        LabHostSpec.named("a").withCluster(),
                        LabHostSpec.named("b").withCluster().withReplicaOf("a"),
                        LabHostSpec.named("c").withCluster().withReplicaOf("b"))))
                .hasMessageContaining("host c: replicaOf 'b' is itself a cluster replica");
    }

    @Test
    void sentinelsWatchTheGroupTheyRunInBesideAnotherReplicationGroup() {
        LabTopology topology = LabTopology.of(List.of(
                LabHostSpec.named("a").withSentinel(),
                LabHostSpec.named("b").withReplicaOf("a").withSentinel(),
                LabHostSpec.named("c"),
                LabHostSpec.named("d").withReplicaOf("c")));
        assertThat(topology.sentinelPrimary()).contains("a");
    }

    @Test
    void rejectsSentinelsWithoutExactlyOnePrimaryToMonitor() {
        assertThatThrownBy(() -> LabTopology.of(List.of(LabHostSpec.named("a").withSentinel(), LabHostSpec.named("b"))))
                .hasMessageContaining("Sentinel on a needs a primary to monitor");
        assertThatThrownBy(() -> LabTopology.of(List.of(
                        LabHostSpec.named("a"),
                        LabHostSpec.named("b").withReplicaOf("a"),
                        LabHostSpec.named("c"),
                        LabHostSpec.named("d").withReplicaOf("c"),
                        LabHostSpec.named("e").withSentinel())))
                .hasMessageContaining("several hosts have replicas: a, c");
        assertThatThrownBy(() -> LabTopology.of(List.of(
                        LabHostSpec.named("a").withSentinel(),
                        LabHostSpec.named("b").withReplicaOf("a"),
                        LabHostSpec.named("c"),
                        LabHostSpec.named("d").withReplicaOf("c").withSentinel())))
                .hasMessageContaining(
                        "Sentinel on a, d monitors one primary, but runs in the replication groups of a, c");
        assertThatThrownBy(() -> LabTopology.of(List.of(
                        LabHostSpec.named("a").withSentinel(),
                        LabHostSpec.named("b").withCluster(),
                        LabHostSpec.named("c").withCluster().withReplicaOf("b"))))
                .as("Sentinel cannot monitor a cluster primary")
                .hasMessageContaining("no non-cluster host has replicas");
    }

    @Test
    void hostsThatFailOverToEachOtherShareOnePasswordWhichIsNeverShown() {
        assertThatThrownBy(() -> LabTopology.of(List.of(
                        LabHostSpec.named("a").withSentinel().withPassword("alpha-secret"),
                        LabHostSpec.named("b").withReplicaOf("a").withPassword("beta-secret"),
                        LabHostSpec.named("c").withReplicaOf("a"))))
                .hasMessageContaining("must share one requirepass")
                .hasMessageContaining("a: password 1; b: password 2; c: no password")
                .hasMessageNotContaining("alpha-secret")
                .hasMessageNotContaining("beta-secret");
        assertThatThrownBy(() -> LabTopology.of(List.of(
                        LabHostSpec.named("a").withCluster().withPassword("pw"),
                        LabHostSpec.named("b").withCluster())))
                .hasMessageContaining("cluster nodes must share one requirepass");
        assertThat(LabTopology.of(List.of(
                                LabHostSpec.named("a").withPassword("pw"),
                                LabHostSpec.named("b").withReplicaOf("a")))
                        .replicasOf("a"))
                .as("without Sentinel or cluster, a replica may have its own password")
                .containsExactly("b");
    }

    @Test
    void aReplicaRunsTheSameServerAsItsSingleInstancePrimary() {
        LabHostSpec old = LabHostSpec.builder("old").server(LabServer.REDIS_6_2).build();

        LabHostSpec replica = LabHostSpec.builder("replica")
                .server(LabServer.REDIS_6_2)
                .replicaOf("old")
                .build();
        assertThat(LabTopology.of(List.of(old, replica)).replicasOf("old")).containsExactly("replica");
        assertThatThrownBy(() ->
                        LabTopology.of(List.of(old, LabHostSpec.named("new").withReplicaOf("old"))))
                .hasMessageContaining("host new: replicaOf 'old' must run the same server")
                .hasMessageContaining("new REDIS_7_0, old REDIS_6_2");
        LabHostSpec many = LabHostSpec.builder("many").instances(3).build();
        assertThatThrownBy(() ->
                        LabTopology.of(List.of(many, LabHostSpec.named("r").withReplicaOf("many"))))
                .hasMessageContaining("with 3 instance(s)");
    }
}
