package dev.fleetfix.lab;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** A Redis 6.2 build as primary and replica, with a password: the pair a failover without FAILOVER TO needs. */
class LabOldReplicationIT {
    @RegisterExtension
    static final LabFleetExtension fleet = LabFleetExtension.of(oldPair());

    private static LabRedis redis;

    /** old-1 and its replica old-2, both Redis 6.2 with a password. */
    private static List<LabHostSpec> oldPair() {
        LabHostSpec primary = LabHostSpec.builder("old-1")
                .server(LabServer.REDIS_6_2)
                .requirepass("old-secret")
                .build();
        LabHostSpec replica = LabHostSpec.builder("old-2")
                .server(LabServer.REDIS_6_2)
                .requirepass("old-secret")
                .replicaOf("old-1")
                .build();
        return List.of(primary, replica);
    }

    @BeforeAll
    static void prepareHosts() {
        redis = new LabRedis(fleet.get(), Optional.of("old-secret"));
    }

    @Test
    void replicaOfA62PrimaryFollowsItAtItsOwnAddress() throws InterruptedException {
        String replica = fleet.host("old-2").address();
        assertThat(redis.redis("old-2", "info server")).contains("redis_version:6.2.");
        assertThat(redis.redis("old-2", "info replication"))
                .contains("role:slave", "master_host:" + fleet.host("old-1").address(), "master_link_status:up");

        redis.redis("old-1", "set lab:key replicated");
        String value = LabRedis.await(
                Duration.ofSeconds(10), () -> redis.redis("old-2", "get lab:key"), v -> v.contains("replicated"));

        assertThat(value).isEqualTo("replicated\n");
        assertThat(redis.redis("old-1", "info replication"))
                .contains(
                        "connected_slaves:1",
                        "slave0:ip=" + replica + ",port=" + fleet.host("old-2").redisPort());
    }
}
