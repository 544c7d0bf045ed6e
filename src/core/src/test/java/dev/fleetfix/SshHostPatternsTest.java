package dev.fleetfix;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class SshHostPatternsTest {

    @Test
    void plainPatternsMatchAsOpenSshsGlobsDo() {
        assertThat(SshHostPatterns.matches("Redis-?.example.com", "redis-1.example.com"))
                .isTrue();
        assertThat(SshHostPatterns.matches("redis-?.example.com", "redis-10.example.com"))
                .isFalse();
        assertThat(SshHostPatterns.matches("*.example.com,!*.test.example.com", "a.test.example.com"))
                .isFalse();
        assertThat(SshHostPatterns.matches("a*b*c", "aXbYbZc")).isTrue();
        assertThat(SshHostPatterns.matches("a*b*c", "aXbYcZ")).isFalse();
        assertThat(SshHostPatterns.matches("10.0.0.1", "10.0.0.10")).isFalse();
        assertThat(SshHostPatterns.matches("!10.0.0.1", "10.0.0.2")).isFalse();
    }

    @Test
    void theHostNameIsMatchedWhateverItsCase() {
        assertThat(SshHostPatterns.matches("redis-*", "Redis-1.Example.com")).isTrue();
        assertThat(SshHostPatterns.matches("*,!REDIS-2*", "redis-2.example.com"))
                .isFalse();
    }
}
