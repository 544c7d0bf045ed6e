package dev.fleetfix.lab;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class LabProbeTest {
    @Test
    void valkeyIsToldByServerNameAndItsOwnVersionNotTheFrozenRedisVersion() {
        String valkey = "# Server\r\nredis_version:7.2.4\r\nserver_name:valkey\r\nvalkey_version:8.1.1\r\n"
                + "redis_mode:standalone\r\n";

        assertThat(LabProbe.serverOf(valkey)).contains("valkey 8.1.1");
    }

    @Test
    void redisOfEveryEraIsToldByRedisVersion() {
        assertThat(LabProbe.serverOf("# Server\r\nredis_version:2.8.19\r\nredis_git_sha1:00000000\r\n"))
                .contains("redis 2.8.19");
        assertThat(LabProbe.serverOf("# Server\r\nredis_version:8.0.2\r\n")).contains("redis 8.0.2");
        assertThat(LabProbe.serverOf("# Server\r\nuptime_in_seconds:3\r\n")).isEmpty();
    }
}
