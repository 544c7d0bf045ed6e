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
                Optional.of(new LabRedisConf.Primary("127.0.0.11", 6379, Optional.of("pw1"))));

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
}
