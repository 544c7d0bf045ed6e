package dev.fleetfix.lab;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class LabReplicationIT {
    @RegisterExtension
    static final LabFleetExtension fleet = LabFleetExtension.of(2, LabPreset.REPLICATED);

    @Test
    void replicaFollowsThePrimary() throws InterruptedException {
        String primary = fleet.host("lab-1").address();
        String replica = fleet.host("lab-2").address();
        String info = "";
        for (int attempt = 0; attempt < 50 && !info.contains("master_link_status:up"); attempt++) {
            Thread.sleep(200);
            info = OpenSsh.run(
                            fleet.get(),
                            "lab-2",
                            "redis-cli -h " + replica + " -p "
                                    + fleet.host("lab-2").redisPort() + " info replication")
                    .stdout();
        }
        assertThat(info).contains("role:slave", "master_host:" + primary, "master_link_status:up");

        OpenSsh.run(
                fleet.get(),
                "lab-1",
                "redis-cli -h " + primary + " -p " + fleet.host("lab-1").redisPort() + " set lab:key replicated");
        String value = "";
        for (int attempt = 0; attempt < 50 && !value.contains("replicated"); attempt++) {
            Thread.sleep(100);
            value = OpenSsh.run(
                            fleet.get(),
                            "lab-2",
                            "redis-cli -h " + replica + " -p "
                                    + fleet.host("lab-2").redisPort() + " get lab:key")
                    .stdout();
        }
        assertThat(value).contains("replicated");
        assertThat(OpenSsh.run(
                                fleet.get(),
                                "lab-1",
                                "redis-cli -h " + primary + " -p "
                                        + fleet.host("lab-1").redisPort() + " info replication")
                        .stdout())
                .as("the primary lists its replica at the replica's own address, not at 127.0.0.1")
                .contains(
                        "role:master",
                        "connected_slaves:1",
                        "slave0:ip=" + replica + ",port=" + fleet.host("lab-2").redisPort() + ",");
    }
}
