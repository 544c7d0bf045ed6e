package dev.fleetfix.lab;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The cluster preset on 3 hosts: lab-1 a primary with lab-2 its replica, lab-3 a primary alone. Each test leaves
 * that layout as it found it, so they run in any order.
 */
class LabClusterIT {
    @RegisterExtension
    static final LabFleetExtension fleet = LabFleetExtension.of(3, LabPreset.CLUSTER);

    private static LabRedis cli;

    @BeforeAll
    static void prepareHosts() {
        cli = new LabRedis(fleet.get(), Optional.empty());
    }

    @Test
    void threeNodesCoverEverySlotAndLab2FollowsLab1() {
        String lab1Id = cli.redis("lab-1", "cluster myid").strip();
        List<String> nodes = cli.redis("lab-3", "cluster nodes").lines().toList();

        assertThat(nodes).hasSize(3);
        // flags read "master", or "myself,master" on the node asked
        assertThat(line(nodes, "lab-1")).containsPattern("[ ,]master ").endsWith(" connected 0-8191");
        assertThat(line(nodes, "lab-2")).containsPattern("[ ,]slave " + lab1Id + " ");
        assertThat(line(nodes, "lab-3")).containsPattern("[ ,]master ").endsWith(" connected 8192-16383");
        for (String host : List.of("lab-1", "lab-2", "lab-3")) {
            assertThat(cli.redis(host, "cluster info"))
                    .as(host)
                    .contains("cluster_state:ok", "cluster_slots_assigned:16384", "cluster_known_nodes:3");
        }
        assertThat(cli.redis("lab-2", "info replication"))
                .contains("role:slave", "master_host:" + fleet.host("lab-1").address(), "master_link_status:up");

        cli.redis("lab-1", "-c set lab:cluster:key stored");
        assertThat(cli.redis("lab-3", "-c get lab:cluster:key")).isEqualTo("stored\n");
    }

    @Test
    void clusterFailoverOnTheReplicaSwapsRoles() throws Exception {
        assertThat(cli.redis("lab-2", "cluster failover")).isEqualTo("OK\n");

        String lab1 =
                LabRedis.await(Duration.ofSeconds(15), () -> cli.redis("lab-1", "role"), r -> r.startsWith("slave\n"));
        assertThat(lab1).startsWith("slave\n" + fleet.host("lab-2").address() + "\n");
        assertThat(cli.redis("lab-2", "role")).startsWith("master\n");
        assertThat(cli.redis("lab-2", "cluster info")).contains("cluster_state:ok");

        // and back, so that the other tests find the preset's layout whatever order they run in. A second manual
        // failover this soon did not happen within 30 s in the lab (no election won); TAKEOVER needs no votes.
        String link = LabRedis.await(
                Duration.ofSeconds(30),
                () -> cli.redis("lab-1", "info replication"),
                r -> r.contains("master_link_status:up"));
        assertThat(link).contains("master_link_status:up");
        assertThat(cli.redis("lab-1", "cluster failover takeover")).isEqualTo("OK\n");
        String lab2 =
                LabRedis.await(Duration.ofSeconds(30), () -> cli.redis("lab-2", "role"), r -> r.startsWith("slave\n"));
        assertThat(lab2).startsWith("slave\n" + fleet.host("lab-1").address() + "\n");
        for (String host : List.of("lab-1", "lab-2")) {
            String info = LabRedis.await(
                    Duration.ofSeconds(15), () -> cli.redis(host, "cluster info"), i -> i.contains("cluster_state:ok"));
            assertThat(info).as(host).contains("cluster_state:ok");
        }
    }

    @Test
    void aRebootedNodeRejoinsTheCluster() throws Exception {
        cli.redis("lab-1", "-c set lab:cluster:key stored");
        fleet.reboot("lab-3");

        for (String host : List.of("lab-1", "lab-2", "lab-3")) {
            String info = LabRedis.await(
                    Duration.ofSeconds(20), () -> cli.redis(host, "cluster info"), i -> i.contains("cluster_state:ok"));
            assertThat(info).as(host).contains("cluster_state:ok", "cluster_known_nodes:3");
        }
        assertThat(cli.redis("lab-3", "-c get lab:cluster:key")).isEqualTo("stored\n");
    }

    /** The CLUSTER NODES line of the host: "<id> <address>:<port>@<bus> ...". */
    private static String line(List<String> nodes, String host) {
        LabHost target = fleet.host(host);
        String endpoint = " " + target.address() + ":" + target.redisPort() + "@";
        return nodes.stream()
                .filter(n -> n.contains(endpoint))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no line for " + host + " (" + endpoint.strip()
                        + ") in CLUSTER NODES:\n" + String.join("\n", nodes)));
    }
}
