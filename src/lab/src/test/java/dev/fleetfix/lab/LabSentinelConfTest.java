package dev.fleetfix.lab;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Optional;
import org.junit.jupiter.api.Test;

class LabSentinelConfTest {
    @Test
    void monitorsThePrimaryAsLabAndAnnouncesItsOwnAddress() {
        String conf = LabSentinelConf.text(
                "127.0.0.12", 26379, new LabRedisConf.Primary("127.0.0.11", 6380, Optional.of("pw")), 2);

        assertThat(conf)
                .isEqualTo(
                        """
                        # fleetfix lab: Redis Sentinel of this host
                        bind 127.0.0.12
                        port 26379
                        daemonize no
                        dir /var/lib/redis
                        logfile ""
                        sentinel announce-ip 127.0.0.12
                        sentinel monitor lab 127.0.0.11 6380 2
                        sentinel down-after-milliseconds lab 3000
                        sentinel failover-timeout lab 15000
                        sentinel auth-pass lab pw
                        """);
    }

    @Test
    void withoutAPasswordNoAuthPass() {
        assertThat(LabSentinelConf.text(
                        "127.0.0.11", 26380, new LabRedisConf.Primary("127.0.0.11", 6379, Optional.empty()), 1))
                .contains("port 26380\n", "sentinel monitor lab 127.0.0.11 6379 1\n")
                .doesNotContain("auth-pass");
    }

    @Test
    void unitRunsTheSentinelAsRedisAndComesBackAfterABoot() {
        assertThat(LabSentinelConf.unit())
                .contains(
                        "ExecStart=/usr/bin/redis-server /etc/redis/sentinel.conf --sentinel",
                        "User=redis",
                        "Restart=always",
                        "WantedBy=multi-user.target");
    }
}
