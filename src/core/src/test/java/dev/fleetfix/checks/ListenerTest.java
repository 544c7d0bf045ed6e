package dev.fleetfix.checks;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ListenerTest {
    @Test
    void aListenerAtTheSameAddressOrAWildcardIsThisOneAnotherAddressIsNot() {
        assertThat(Listener.at("127.0.0.3", "127.0.0.3:6379")).isTrue();
        assertThat(Listener.at("127.0.0.3", "127.0.0.2:6379")).isFalse();
        assertThat(Listener.at("127.0.0.3", "127.0.0.30:6379")).isFalse();
        assertThat(Listener.at("127.0.0.3", "0.0.0.0:6379")).isTrue();
        assertThat(Listener.at("127.0.0.3", "*:6379")).isTrue();
        assertThat(Listener.at("127.0.0.3", "[::]:6379")).isTrue();
        assertThat(Listener.at("127.0.0.3", "[::ffff:127.0.0.3]:6379")).isTrue();
        assertThat(Listener.at("127.0.0.3", "[::ffff:127.0.0.2]:6379")).isFalse();
        assertThat(Listener.at("127.0.0.3", "127.0.0.3%lo:6379")).isTrue();
        assertThat(Listener.at("10.1.2.3", "0.0.0.0%eth0:6379")).isTrue();
    }

    @Test
    void olderSsPrintsIpv6WithoutBracketsAndScopesInside() {
        assertThat(Listener.at("127.0.0.3", ":::6379")).isTrue();
        assertThat(Listener.at("127.0.0.3", "::ffff:127.0.0.3:6379")).isTrue();
        assertThat(Listener.at("127.0.0.3", "::ffff:127.0.0.4:6379")).isFalse();
        assertThat(Listener.at("fe80::1", "[fe80::1%eth0]:6379")).isTrue();
    }

    @Test
    void ipv6IsComparedAsAnAddressNotAsText() {
        assertThat(Listener.at("::1", "[::1]:6379")).isTrue();
        assertThat(Listener.at("0:0:0:0:0:0:0:1", "[::1]:6379")).isTrue();
        assertThat(Listener.at("fd00::2", "[fd00:0::2]:6379")).isTrue();
        assertThat(Listener.at("fd00::2", "[fd00::3]:6379")).isFalse();
        assertThat(Listener.at("fd00::2", "127.0.0.1:6379")).isFalse();
    }

    @Test
    void theImplicitLocalhostIsTheLoopbackListenerAndANameIsEveryListener() {
        assertThat(Listener.at("localhost", "127.0.0.1:6379")).isTrue();
        assertThat(Listener.at("localhost", "127.0.0.4:6379")).isFalse();
        assertThat(Listener.at("redis-1.example.com", "127.0.0.4:6379")).isTrue();
        assertThat(Listener.at("", "10.0.0.9:6379")).isTrue();
        // hex that is no IPv6 address is no name to look up either: it matches as a name does
        assertThat(Listener.at("ab:cd:ef", "10.0.0.9:6379")).isTrue();
    }

    @Test
    void procNetTcpAddressesAreLittleEndianWords() {
        assertThat(Listener.at("127.0.0.3", "0300007F:18EB")).isTrue();
        assertThat(Listener.at("127.0.0.3", "0200007F:18EB")).isFalse();
        assertThat(Listener.at("127.0.0.3", "00000000:18EB")).isTrue();
        assertThat(Listener.at("127.0.0.3", "00000000000000000000000000000000:18EB"))
                .isTrue();
        assertThat(Listener.at("127.0.0.3", "0000000000000000FFFF00000300007F:18EB"))
                .isTrue();
        assertThat(Listener.at("::1", "00000000000000000000000001000000:18EB")).isTrue();
        assertThat(Listener.at("::1", "0100007F:18EB")).isFalse();
    }
}
