package dev.fleetfix.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fleetfix.lab.LabFleetExtension;
import dev.fleetfix.lab.LabHostSpec;
import dev.fleetfix.lab.LabServer;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The hand-over by hand (no Sentinel, no FAILOVER command) chosen with {@code failover: manual} on
 * a real Redis 6.2 primary and replica, which has FAILOVER: the same route 3.0-6.0 take for want of
 * it, here pausing writes with CLIENT PAUSE WRITE where 3.0-6.0 pause every client. The route on a
 * real 6.0, chosen because it has no FAILOVER, is {@link PreFailoverHandoverIT}'s.
 */
class ManualFailoverIT {
    @RegisterExtension
    static final LabFleetExtension fleet = LabFleetExtension.of(
            LabHostSpec.builder("old-1").server(LabServer.REDIS_6_2).build(),
            LabHostSpec.builder("old-2")
                    .server(LabServer.REDIS_6_2)
                    .replicaOf("old-1")
                    .build());

    private static LabData data;

    @TempDir
    static Path dir;

    @BeforeAll
    static void prepareHosts() {
        data = new LabData(fleet.get(), List.of("old-1", "old-2"));
        data.seed("old-1", "manual", 5000);
        data.awaitKeys("old-2", 5000);
    }

    @Test
    void aPrimaryIsHandedToItsReplicaByHandAndBackWithEveryKey() {
        Map<String, String> before = data.digests();
        assertThat(before.get("old-1")).isEqualTo(before.get("old-2")).startsWith("5000 ");

        CliRun run = data.apply(dir, LabData.restartPlaybook("1", ", failover: manual, failback: true"));

        assertThat(run.exitCode()).as(run.toString()).isZero();
        assertThat(run.stdout())
                .containsPattern(LabData.restartSays("old-1", "primary, failover: manual: hand over by hand to old-2"))
                .contains("failed back: old-1 is primary again");
        data.assertIntact(before);
        assertThat(data.cli("old-1", "INFO replication")).contains("role:master");
        assertThat(data.cli("old-2", "INFO replication")).contains("role:slave", "master_link_status:up");
        assertThat(data.cli("old-1", "CONFIG GET min-slaves-to-write")).endsWith("\n0");
        assertThat(fleet.rootExec("old-2", "grep -E '^(replicaof|slaveof) ' /etc/redis/redis.conf")
                        .stdout())
                .contains(fleet.host("old-1").address());
    }
}
