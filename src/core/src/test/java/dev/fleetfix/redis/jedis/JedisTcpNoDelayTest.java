package dev.fleetfix.redis.jedis;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.HostAndPort;

/** The load connections' TCP_NODELAY is what the plan asked, though Jedis turns it on by itself. */
class JedisTcpNoDelayTest {
    @Test
    void theSocketCarriesTheAskedSetting() throws Exception {
        try (ServerSocket server = new ServerSocket(0, 4, InetAddress.getLoopbackAddress())) {
            HostAndPort address = new HostAndPort("127.0.0.1", server.getLocalPort());
            DefaultJedisClientConfig config =
                    DefaultJedisClientConfig.builder().timeoutMillis(2000).build();
            try (Socket off = JedisBenchTarget.socketFactory(address, config, false)
                            .createSocket();
                    Socket on = JedisBenchTarget.socketFactory(address, config, true)
                            .createSocket()) {
                assertThat(off.getTcpNoDelay()).isFalse();
                assertThat(on.getTcpNoDelay()).isTrue();
            }
        }
    }
}
