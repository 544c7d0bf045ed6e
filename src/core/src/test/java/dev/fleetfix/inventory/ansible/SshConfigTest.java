package dev.fleetfix.inventory.ansible;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.fleetfix.InputException;
import dev.fleetfix.inventory.Host;
import dev.fleetfix.inventory.Inventory;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** OpenSSH's client configuration applied to inventory hosts: first match wins, the inventory wins over it. */
class SshConfigTest {
    @TempDir
    Path dir;

    private Inventory load(String ini, String sshConfig) throws IOException {
        Path hosts = Files.writeString(dir.resolve("hosts.ini"), ini);
        Path config = Files.writeString(dir.resolve("ssh_config"), sshConfig);
        Inventory inventory =
                InventorySources.load(hosts.toString(), Optional.empty()).inventory();
        return SshConfig.read(config, true).applyTo(inventory);
    }

    @Test
    void theFirstValueObtainedWinsAndHostNameMovesRedisToo() throws IOException {
        Inventory inventory = load(
                "[redis]\nweb-1\nweb-2 ansible_port=2200 ansible_user=ops\ndb-1 redis_host=10.0.0.99\n",
                """
                # comment
                Host web-1
                    HostName 10.0.0.1
                    Port 2222
                Host web-* !web-9
                    User deploy
                    Port 2022
                    IdentityFile ~/.ssh/web_%h
                    ProxyJump bastion.example
                Host db-?
                    HostName %h.internal
                    UserKnownHostsFile /etc/fleet/known_hosts /other
                Host *
                    User=fallback
                    StrictHostKeyChecking accept-new
                """);

        Host web1 = inventory.host("web-1").orElseThrow();
        assertThat(web1.address()).isEqualTo("10.0.0.1");
        assertThat(web1.port()).isEqualTo(2222);
        assertThat(web1.user()).contains("deploy");
        assertThat(web1.keyFile()).contains(Path.of(System.getProperty("user.home"), ".ssh/web_web-1"));
        assertThat(web1.jump()).contains("bastion.example");
        assertThat(web1.redis().address()).isEqualTo("10.0.0.1");

        Host web2 = inventory.host("web-2").orElseThrow();
        assertThat(web2.port()).as("ansible_port beats Port").isEqualTo(2200);
        assertThat(web2.user()).as("ansible_user beats User").contains("ops");

        Host db1 = inventory.host("db-1").orElseThrow();
        assertThat(db1.address()).isEqualTo("db-1.internal");
        assertThat(db1.user()).contains("fallback");
        assertThat(db1.knownHosts()).contains(Path.of("/etc/fleet/known_hosts"));
        assertThat(db1.redis().address()).as("redis_host is kept").isEqualTo("10.0.0.99");
    }

    @Test
    void patternsMatchLikeOpenSsh() {
        assertThat(SshConfigText.matches(List.of("web-*", "!web-9"), "web-1")).isTrue();
        assertThat(SshConfigText.matches(List.of("web-*", "!web-9"), "web-9")).isFalse();
        assertThat(SshConfigText.matches(List.of("!web-9"), "db-1"))
                .as("a negation alone matches nothing")
                .isFalse();
        assertThat(SshConfigText.matches(List.of("db-?"), "db-10")).isFalse();
        assertThat(SshConfigText.matches(List.of("a,b"), "b")).isTrue();
    }

    @Test
    void matchBlocksAreLeftOutAndSaidSo() throws IOException {
        Path config = Files.writeString(
                dir.resolve("ssh_config"),
                "Match host web-1\n    User matched\nInclude conf.d/*\nHost *\n    User all\n");

        SshConfig ssh = SshConfig.read(config, true);

        assertThat(ssh.notices()).hasSize(2).anyMatch(n -> n.contains(config + ":1: Match"));
        assertThat(ssh.lookup("web-1").get("user").value()).isEqualTo("all");
    }

    @Test
    void aHostBehindAProxyCommandIsRefusedAndTheCommandsFleetfixDoesNotRunAreSaid() throws IOException {
        SshConfig ssh = SshConfig.read(
                Files.writeString(
                        dir.resolve("ssh_config"),
                        """
                        Host redis-* !redis-9
                            HostName %h.internal
                            ProxyCommand ssh -W %h:%p bastion.example
                        Host redis-9
                            ProxyJump ops@bastion.example
                            ProxyCommand ssh -W %h:%p other
                        Host *
                            KnownHostsCommand /usr/local/bin/keys %H
                            LocalCommand echo connected
                            CertificateFile ~/.ssh/fleet-cert.pub
                        """),
                true);
        Inventory inventory = ssh.applyTo(InventorySources.load(
                        Files.writeString(dir.resolve("hosts.ini"), "[redis]\nredis-1\nredis-2\nredis-9\n")
                                .toString(),
                        Optional.empty())
                .inventory());
        Path config = dir.resolve("ssh_config");

        assertThat(ssh.refusal(inventory.host("redis-1").orElseThrow()))
                .contains("ProxyCommand in " + config + ":3 is not supported; use ProxyJump");
        assertThat(ssh.refusal(inventory.host("redis-2").orElseThrow())).isPresent();
        // OpenSSH keeps the first of ProxyJump and ProxyCommand: redis-9 goes through its jump host
        assertThat(ssh.refusal(inventory.host("redis-9").orElseThrow())).isEmpty();
        assertThat(inventory.host("redis-9").orElseThrow().jump()).contains("ops@bastion.example");
        assertThat(ssh.notices())
                .containsExactly(
                        config + ":3: ProxyCommand is not supported by fleetfix; redis-1, redis-2 fail rather than be"
                                + " reached around it (use ProxyJump)",
                        config + ":8: KnownHostsCommand is not run by fleetfix; the host keys of redis-1, redis-2,"
                                + " redis-9 are checked against known_hosts files only",
                        config + ":9: LocalCommand is not run by fleetfix after connecting to redis-1, redis-2,"
                                + " redis-9");
        // CertificateFile is used, not reported: offered with the key it certifies
        assertThat(ssh.certificateFiles(inventory.host("redis-9").orElseThrow()))
                .containsExactly(Path.of(System.getProperty("user.home"), ".ssh/fleet-cert.pub"));
    }

    @Test
    void aBadPortOrTimeoutNamesItsLine() {
        assertThatThrownBy(() -> load("r1\n", "Host *\n  Port 0\n"))
                .isInstanceOf(InputException.class)
                .hasMessageContaining("ssh_config:2: ssh config: Port must be 1..65535, was 0");
        assertThatThrownBy(() -> load("r1\n", "Host r1\n  ConnectTimeout soon\n"))
                .isInstanceOf(InputException.class)
                .hasMessageContaining("ssh_config:2:");
    }

    @Test
    void aMissingFileGivenWithDashFIsBadInputButAMissingDefaultIsNothing() {
        assertThatThrownBy(() -> SshConfig.read(dir.resolve("nope"), true)).hasMessageContaining("no such file");
        assertThat(SshConfig.read(dir.resolve("nope"), false).notices()).isEmpty();
    }
}
