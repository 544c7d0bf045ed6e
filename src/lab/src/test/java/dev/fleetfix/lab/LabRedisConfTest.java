package dev.fleetfix.lab;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Optional;
import org.junit.jupiter.api.Test;

class LabRedisConfTest {
    @Test
    void replicaOfAPasswordProtectedPrimary() {
        LabHostSpec spec = LabHostSpec.named("lab-2")
                .withReplicaOf("lab-1")
                .withPassword("pw2")
                .withSave("");

        String conf = LabRedisConf.text(
                spec,
                "127.0.0.12",
                6379,
                Optional.of(new LabRedisConf.Primary("127.0.0.11", 6379, Optional.of("pw1"))),
                false);

        assertThat(conf)
                .isEqualTo(
                        """
                        bind 127.0.0.12
                        port 6379
                        replica-announce-ip 127.0.0.12
                        disable-thp no
                        save ""
                        appendonly no
                        enable-debug-command local
                        requirepass pw2
                        replicaof 127.0.0.11 6379
                        masterauth pw1
                        """);
    }

    @Test
    void everyHostAnnouncesItsOwnAddressToItsPrimary() {
        String conf = LabRedisConf.text(LabHostSpec.named("lab-1"), "127.0.0.11", 6380, Optional.empty(), false);

        assertThat(conf).contains("bind 127.0.0.11\n", "port 6380\n", "replica-announce-ip 127.0.0.11\n");
        assertThat(conf).doesNotContain("replicaof", "masterauth", "cluster");
    }

    @Test
    void aPrimaryWithReplicasKnowsThePasswordToFollowOneAfterAFailover() {
        LabHostSpec primary = LabHostSpec.named("lab-1").withPassword("pw");

        assertThat(LabRedisConf.text(primary, "127.0.0.11", 6379, Optional.empty(), true))
                .contains("requirepass pw\nmasterauth pw\n");
        assertThat(LabRedisConf.text(primary, "127.0.0.11", 6379, Optional.empty(), false))
                .doesNotContain("masterauth");
    }

    @Test
    void clusterReplicaFollowsThroughClusterReplicateNotADirective() {
        LabHostSpec spec = LabHostSpec.named("lab-2").withCluster().withReplicaOf("lab-1");

        String conf = LabRedisConf.text(
                spec,
                "127.0.0.12",
                6379,
                Optional.of(new LabRedisConf.Primary("127.0.0.11", 6379, Optional.empty())),
                false);

        assertThat(conf)
                .contains(
                        "cluster-enabled yes\n",
                        "cluster-config-file nodes-6379.conf\n",
                        "cluster-node-timeout 3000\n",
                        "cluster-announce-ip 127.0.0.12\n",
                        "replica-announce-ip 127.0.0.12\n")
                .doesNotContain("replicaof", "masterauth");
    }

    @Test
    void redis28GetsAWholeFileOfItsEraWithOneSavePointALine() {
        LabHostSpec spec = LabHostSpec.builder("lab-1")
                .server(LabServer.REDIS_2_8)
                .save("900 1 300 10")
                .requirepass("pw")
                .build();

        String conf = LabRedisConf.text(spec, "127.0.0.11", 6379, Optional.empty(), false);

        assertThat(conf)
                .contains("daemonize no\n", "bind 127.0.0.11\n", "port 6379\n", "save 900 1\nsave 300 10\n")
                .contains("requirepass pw\n", "dir /var/lib/redis\n")
                // directives 2.8 does not know stop it at startup
                .doesNotContain("replica", "disable-thp", "enable-debug-command", "appenddirname");
    }

    @Test
    void redis62ReplicaUsesItsNamesAndAnnouncesItsAddress() {
        LabHostSpec spec = LabHostSpec.builder("lab-2")
                .server(LabServer.REDIS_6_2)
                .save("")
                .replicaOf("lab-1")
                .build();

        String conf = LabRedisConf.text(
                spec,
                "127.0.0.12",
                6379,
                Optional.of(new LabRedisConf.Primary("127.0.0.11", 6379, Optional.of("pw1"))),
                false);

        assertThat(conf)
                .contains("save \"\"\n", "replica-announce-ip 127.0.0.12\n", "disable-thp no\n")
                .contains("replicaof 127.0.0.11 6379\n", "masterauth pw1\n")
                .doesNotContain("enable-debug-command");
    }

    @Test
    void redis60ReplicaUsesReplicaNamesButHasNoDisableThp() {
        LabHostSpec spec = LabHostSpec.builder("lab-2")
                .server(LabServer.REDIS_6_0)
                .save("900 1")
                .replicaOf("lab-1")
                .build();

        String conf = LabRedisConf.text(
                spec,
                "127.0.0.12",
                6379,
                Optional.of(new LabRedisConf.Primary("127.0.0.11", 6379, Optional.empty())),
                false);

        // 6.0 refuses to start on disable-thp (6.2), and without replica-announce-ip its primary would list it at
        // 127.0.0.1
        assertThat(conf)
                .contains("save 900 1\n", "replica-announce-ip 127.0.0.12\n", "replicaof 127.0.0.11 6379\n")
                .doesNotContain("disable-thp", "enable-debug-command", "slaveof");
    }

    @Test
    void eachInstanceHasItsOwnPortPidLogAndDataFiles() {
        LabHostSpec spec = LabHostSpec.builder("lab-6").instances(3).build();

        assertThat(LabRedisConf.instance(spec, "127.0.0.16", 6380))
                .contains("bind 127.0.0.16\n", "port 6380\n", "pidfile /run/redis-6380/redis-server.pid\n")
                .contains("logfile /var/log/redis/redis-server-6380.log\n", "dbfilename dump-6380.rdb\n")
                .contains("appenddirname appendonlydir-6380\n");
    }
}
