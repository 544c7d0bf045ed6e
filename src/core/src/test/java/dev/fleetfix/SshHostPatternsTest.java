package dev.fleetfix.transport.ssh;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class HostPatternsTest {

    @Test
    void plainPatternsMatchAsOpenSshsGlobsDo() {
        assertThat(HostPatterns.matches("Redis-?.example.com", "redis-1.example.com"))
                .isTrue();
        assertThat(HostPatterns.matches("redis-?.example.com", "redis-10.example.com"))
                .isFalse();
        assertThat(HostPatterns.matches("*.example.com,!*.test.example.com", "a.test.example.com"))
                .isFalse();
        assertThat(HostPatterns.matches("a*b*c", "aXbYbZc")).isTrue();
        assertThat(HostPatterns.matches("a*b*c", "aXbYcZ")).isFalse();
        assertThat(HostPatterns.matches("10.0.0.1", "10.0.0.10")).isFalse();
        assertThat(HostPatterns.matches("!10.0.0.1", "10.0.0.2")).isFalse();
    }
}
