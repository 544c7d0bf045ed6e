package dev.fleetfix.lab;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fleetfix.inventory.Host;
import dev.fleetfix.inventory.ansible.InventoryLoader;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The sentinel preset: lab-1 the primary, lab-2 and lab-3 its replicas, a Sentinel on each host; here with a Redis
 * password on every host, so that Sentinel's auth-pass and the old primary's masterauth are exercised too.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class LabSentinelIT {
    private static final List<String> HOSTS = List.of("lab-1", "lab-2", "lab-3");
    private static final String PASSWORD = "lab-sentinel-pw";

    @RegisterExtension
    static final LabFleetExtension fleet = LabFleetExtension.of(LabPreset.SENTINEL.specs(3).stream()
            .map(spec -> spec.withPassword(PASSWORD))
            .toList());

    private static LabRedis cli;

    @BeforeAll
    static void prepareHosts() {
        cli = new LabRedis(fleet.get(), Optional.of(PASSWORD));
    }

    @Test
    @Order(1)
    void thePrimaryListsItsReplicasByTheirOwnAddresses() {
        String info = cli.redis("lab-1", "info replication");

        assertThat(info).contains("role:master", "connected_slaves:2");
        for (String replica : List.of("lab-2", "lab-3")) {
            LabHost host = fleet.host(replica);
            assertThat(info).contains("ip=" + host.address() + ",port=" + host.redisPort() + ",state=online");
        }
        assertThat(info).doesNotContain("ip=127.0.0.1,");
    }

    @Test
    @Order(2)
    void everySentinelNamesLab1AsMasterAndKnowsTheReplicasAndTheOtherSentinels() throws Exception {
        LabHost primary = fleet.host("lab-1");
        for (String host : HOSTS) {
            assertThat(cli.sentinel(host, "sentinel get-master-addr-by-name lab"))
                    .as(host)
                    .isEqualTo(primary.address() + "\n" + primary.redisPort() + "\n");
            assertThat(LabRedisCli.pairs(cli.sentinel(host, "sentinel master lab")))
                    .as(host)
                    .containsEntry("num-slaves", "2")
                    .containsEntry("num-other-sentinels", "2")
                    .containsEntry("quorum", "2");
            assertThat(cli.sentinel(host, "sentinel replicas lab"))
                    .as(host)
                    .contains(fleet.host("lab-2").address(), fleet.host("lab-3").address());
        }

        List<Host> sentinels = InventoryLoader.load(fleet.inventoryFile()).hosts().stream()
                .filter(h -> h.groups().contains("sentinel"))
                .toList();
        assertThat(sentinels).extracting(Host::name).containsExactlyElementsOf(HOSTS);
        assertThat(sentinels).allSatisfy(h -> assertThat(h.vars().get("sentinel_port"))
                .isEqualTo(fleet.host(h.name()).sentinelPort().getAsInt()));
    }

    @Test
    @Order(3)
    void theSentinelIsBackAfterAReboot() {
        fleet.reboot("lab-3");

        assertThat(fleet.rootExec("lab-3", "systemctl is-active fleetfix-lab-sentinel")
                        .stdout())
                .isEqualTo("active\n");
        assertThat(cli.sentinel("lab-3", "sentinel get-master-addr-by-name lab"))
                .startsWith(fleet.host("lab-1").address() + "\n");
        assertThat(fleet.status())
                .filteredOn(s -> s.host().name().equals("lab-3"))
                .singleElement()
                .satisfies(s -> assertThat(s.sentinelUp()).isTrue());
    }

    @Test
    @Order(4)
    void sentinelFailoverTurnsTheOldPrimaryIntoAReplica() throws Exception {
        assertThat(cli.sentinel("lab-2", "sentinel failover lab")).isEqualTo("OK\n");

        String role =
                LabRedis.await(Duration.ofSeconds(30), () -> cli.redis("lab-1", "role"), r -> r.startsWith("slave\n"));
        assertThat(role).as("lab-1 within 30 s of SENTINEL FAILOVER").startsWith("slave\n");
        String master = cli.sentinel("lab-2", "sentinel get-master-addr-by-name lab");
        assertThat(master).doesNotStartWith(fleet.host("lab-1").address() + "\n");
        String newPrimary = master.lines().findFirst().orElseThrow();
        String replication = LabRedis.await(
                Duration.ofSeconds(15),
                () -> cli.redis("lab-1", "info replication"),
                r -> r.contains("master_link_status:up"));
        assertThat(replication)
                .as("lab-1 follows the new primary with its password")
                .contains("master_host:" + newPrimary, "master_link_status:up");
        assertThat(fleet.rootExec("lab-1", "grep '^replicaof' /etc/redis/redis.conf")
                        .stdout())
                .as("Sentinel rewrote lab-1's config")
                .startsWith("replicaof " + newPrimary + " ");
    }
}
