package dev.fleetfix.transport.ssh;

import static org.assertj.core.api.Assertions.assertThat;

import net.schmizz.sshj.common.Factory;
import org.junit.jupiter.api.Test;

class ClientConfigTest {

    @Test
    void offersEveryCipherOfOpenSshsDefaultListAndNoneThatOpenSshDropped() {
        var names = new ClientConfig()
                .getCipherFactories().stream().map(Factory.Named::getName).toList();

        // sshd_config(5) of OpenSSH 9: the server's default Ciphers
        assertThat(names)
                .startsWith("chacha20-poly1305@openssh.com")
                .contains(
                        "aes128-ctr",
                        "aes192-ctr",
                        "aes256-ctr",
                        "aes128-gcm@openssh.com",
                        "aes256-gcm@openssh.com",
                        "aes128-cbc",
                        "3des-cbc");
        assertThat(names).noneMatch(n -> n.matches("(?i).*(blowfish|cast128|idea|serpent|twofish|arcfour).*"));
    }

    @Test
    void keepsSshjsKeyExchangesMacsAndHostKeyAlgorithms() {
        ClientConfig config = new ClientConfig();

        assertThat(config.getKeyExchangeFactories().stream().map(Factory.Named::getName))
                .contains("curve25519-sha256", "ecdh-sha2-nistp256", "diffie-hellman-group14-sha256");
        assertThat(config.getMACFactories().stream().map(Factory.Named::getName))
                .contains("hmac-sha2-256-etm@openssh.com", "hmac-sha2-256");
        assertThat(config.getKeyAlgorithms().stream().map(Factory.Named::getName))
                .contains("ssh-ed25519", "rsa-sha2-512", "ecdsa-sha2-nistp256");
    }
}
