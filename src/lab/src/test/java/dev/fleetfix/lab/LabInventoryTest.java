package dev.fleetfix.lab;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fleetfix.Secret;
import dev.fleetfix.inventory.Host;
import dev.fleetfix.inventory.Inventory;
import dev.fleetfix.inventory.ansible.InventoryLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LabInventoryTest {
    @Test
    void writesAnAnsibleInventoryWithConnectionVarsAndOneEntryPerHost() {
        Path dir = Path.of("/labs/ab12cd34");
        String yaml = LabInventory.yaml(
                "fleetfix",
                dir.resolve("id_ed25519"),
                dir.resolve("known_hosts"),
                List.of(new LabHost("lab-1", "127.0.0.11", 22, 6379), new LabHost("lab-2", "127.0.0.12", 22, 6379)),
                Map.of("lab-2", dir.resolve("hosts/lab-2/redis-password")));

        assertThat(yaml)
                .isEqualTo(
                        """
                        # fleetfix lab inventory: removed with the lab (fleetfix lab down)
                        all:
                          vars:
                            ansible_user: fleetfix
                            ansible_ssh_private_key_file: \"/labs/ab12cd34/id_ed25519\"
                            ansible_become: true
                            known_hosts_file: \"/labs/ab12cd34/known_hosts\"
                          children:
                            redis:
                              hosts:
                                lab-1:
                                  ansible_host: \"127.0.0.11\"
                                  ansible_port: 22
                                  redis_port: 6379
                                lab-2:
                                  ansible_host: \"127.0.0.12\"
                                  ansible_port: 22
                                  redis_port: 6379
                                  redis_password_file: \"/labs/ab12cd34/hosts/lab-2/redis-password\"
                        """);
    }

    @Test
    void pathsThatYamlWouldMisreadAreReadBackAsWritten(@TempDir Path dir) throws Exception {
        Path key = Path.of("/home/o'neil/#labs: x/\"id\" ed25519");
        String yaml = LabInventory.yaml(
                "fleetfix", key, Path.of("/k"), List.of(new LabHost("lab-1", "127.0.0.11", 22, 6379)), Map.of());

        Path file = Files.writeString(dir.resolve("inventory.yml"), yaml);
        Host host = InventoryLoader.load(file).host("lab-1").orElseThrow();
        assertThat(host.vars()).as(yaml).containsEntry("ansible_ssh_private_key_file", key.toString());
    }

    @Test
    void sentinelHostsAreAlsoInGroupSentinelWithTheirPort(@TempDir Path dir) throws Exception {
        String yaml = LabInventory.yaml(
                "fleetfix",
                dir.resolve("id_ed25519"),
                dir.resolve("known_hosts"),
                List.of(
                        new LabHost("lab-1", "127.0.0.11", 22, 6379, OptionalInt.of(26379)),
                        new LabHost("lab-2", "127.0.0.12", 22, 6379),
                        new LabHost("lab-3", "127.0.0.13", 22, 6379, OptionalInt.of(26380))),
                Map.of());

        assertThat(yaml)
                .endsWith(
                        """
                            sentinel:
                              hosts:
                                lab-1:
                                  sentinel_port: 26379
                                lab-3:
                                  sentinel_port: 26380
                        """);
        Path file = dir.resolve("inventory.yml");
        Files.writeString(file, yaml);
        Inventory inventory = InventoryLoader.load(file);
        Host sentinel = inventory.host("lab-3").orElseThrow();
        assertThat(sentinel.groups()).contains("redis", "sentinel");
        assertThat(sentinel.vars()).containsEntry("sentinel_port", 26380);
        assertThat(sentinel.redis().port()).isEqualTo(6379);
        assertThat(inventory.host("lab-2").orElseThrow().groups()).doesNotContain("sentinel");
    }

    @Test
    void valkeyNamesItsServiceAndSeveralInstancesAreListedWithTheirUnits(@TempDir Path dir) throws Exception {
        String yaml = LabInventory.yaml(
                "fleetfix",
                dir.resolve("id_ed25519"),
                dir.resolve("known_hosts"),
                List.of(
                        new LabHost(
                                "lab-5",
                                "127.0.0.15",
                                22,
                                6379,
                                OptionalInt.empty(),
                                List.of(6379),
                                LabServer.VALKEY_8_1,
                                LabInit.SYSTEMD),
                        new LabHost(
                                "lab-6",
                                "127.0.0.16",
                                22,
                                6379,
                                OptionalInt.empty(),
                                List.of(6379, 6380, 6381),
                                LabServer.REDIS_7_0,
                                LabInit.SYSTEMD),
                        new LabHost(
                                "lab-7",
                                "127.0.0.17",
                                22,
                                6379,
                                OptionalInt.empty(),
                                List.of(6379),
                                LabServer.REDIS_7_0,
                                LabInit.SYSV)),
                Map.of());

        assertThat(yaml)
                .contains(
                        """
                                lab-5:
                                  ansible_host: \"127.0.0.15\"
                                  ansible_port: 22
                                  redis_port: 6379
                                  redis_service: valkey-server
                                lab-6:
                                  ansible_host: \"127.0.0.16\"
                                  ansible_port: 22
                                  redis_port: 6379
                                  redis_instances:
                                  - port: 6379
                                    service: redis-server@6379
                                    config: \"/etc/redis/redis-6379.conf\"
                                  - port: 6380
                                    service: redis-server@6380
                                    config: \"/etc/redis/redis-6380.conf\"
                                  - port: 6381
                                    service: redis-server@6381
                                    config: \"/etc/redis/redis-6381.conf\"
                                lab-7:
                                  ansible_host: \"127.0.0.17\"
                                  ansible_port: 22
                                  redis_port: 6379
                        """);
        Path file = dir.resolve("inventory.yml");
        Files.writeString(file, yaml);
        Inventory inventory = InventoryLoader.load(file);
        assertThat(inventory.host("lab-5").orElseThrow().redis().serviceUnit()).isEqualTo("valkey-server");
        // every key the lab writes is one fleetfix knows: no "unknown Redis key" warning
        assertThat(inventory.warnings()).isEmpty();
        // fleetfix reads each instance as a host of its own: lab-6@6379, lab-6@6380, lab-6@6381
        assertThat(inventory.host("lab-6@6380").orElseThrow().redis().serviceUnit())
                .isEqualTo("redis-server@6380");
        assertThat(inventory.host("lab-6@6380").orElseThrow().vars().get("redis_instances"))
                .isEqualTo(List.of(
                        Map.of("port", 6379, "service", "redis-server@6379", "config", "/etc/redis/redis-6379.conf"),
                        Map.of("port", 6380, "service", "redis-server@6380", "config", "/etc/redis/redis-6380.conf"),
                        Map.of("port", 6381, "service", "redis-server@6381", "config", "/etc/redis/redis-6381.conf")));
    }

    @Test
    void hostsBuiltByOperatorsCanBeLeftWithoutAServiceForFleetfixToFind(@TempDir Path dir) throws Exception {
        LabHost installServer = new LabHost(
                "lab-1",
                "127.0.0.11",
                22,
                6379,
                OptionalInt.empty(),
                List.of(6379),
                LabServer.REDIS_7_0,
                LabInit.SYSTEMD,
                LabServiceShape.INSTALL_SERVER);
        LabHost instances = new LabHost(
                "lab-2",
                "127.0.0.12",
                22,
                6379,
                OptionalInt.empty(),
                List.of(6379, 6380),
                LabServer.REDIS_7_0,
                LabInit.SYSTEMD);
        String yaml = LabInventory.yaml(
                "fleetfix",
                dir.resolve("id_ed25519"),
                dir.resolve("known_hosts"),
                List.of(installServer, instances),
                Map.of(),
                java.util.Set.of("lab-1", "lab-2"));

        assertThat(installServer.services()).containsExactly("redis_6379");
        assertThat(yaml).doesNotContain("redis_service", "service:", "config:", "redis_6379");
        Path file = dir.resolve("inventory.yml");
        Files.writeString(file, yaml);
        Inventory inventory = InventoryLoader.load(file);
        assertThat(inventory.host("lab-1").orElseThrow().redis().port()).isEqualTo(6379);
        assertThat(inventory.host("lab-2@6380").orElseThrow().redis().port()).isEqualTo(6380);
    }

    @Test
    void aPasswordOfDigitsAndAnAddressReadBackAsStringsAsTheInventoryListingWritesThem(@TempDir Path dir)
            throws Exception {
        String yaml = LabInventory.yaml(
                "fleetfix",
                dir.resolve("id_ed25519"),
                dir.resolve("known_hosts"),
                List.of(new LabHost("lab-1", "127.0.0.11", 22, 6379)),
                Map.of(),
                Set.of(),
                Map.of("lab-1", Map.of("ansible_become_password", "012345", "lab_note", "1:30")));

        // the one writer of inventory --list --yaml: what YAML 1.1 would read as a number is quoted
        assertThat(yaml)
                .contains("ansible_become_password: \"012345\"", "ansible_host: \"127.0.0.11\"", "lab_note: \"1:30\"");
        Path file = Files.writeString(dir.resolve("inventory.yml"), yaml);
        Host host = InventoryLoader.load(file).host("lab-1").orElseThrow();
        assertThat(host.vars().get("ansible_become_password"))
                .isInstanceOfSatisfying(
                        Secret.class, pw -> assertThat(pw.reveal()).isEqualTo("012345"));
        assertThat(host.vars()).containsEntry("lab_note", "1:30");
        assertThat(host.address()).isEqualTo("127.0.0.11");
    }

    @Test
    void theInventoryNamesTheKnownHostsFileWrittenBesideItWithAPortOnlyWhereSshIsNotOn22(@TempDir Path dir)
            throws Exception {
        LabHost plain = new LabHost("lab-1", "127.0.0.11", 22, 6379);
        LabHost moved = new LabHost("lab-2", "127.0.0.12", 2222, 6379);
        LabInventory.writeKnownHosts(
                dir, List.of(plain, moved), h -> "ssh-ed25519 KEY-" + h.name() + " root@" + h.name() + "\n");
        LabInventory.write(dir, List.of(plain, moved), Map.of(), Set.of(), Map.of());

        assertThat(Files.readString(LabInventory.knownHostsFile(dir)))
                .isEqualTo("127.0.0.11 ssh-ed25519 KEY-lab-1\n[127.0.0.12]:2222 ssh-ed25519 KEY-lab-2\n");
        Host host = InventoryLoader.load(LabInventory.file(dir)).host("lab-2").orElseThrow();
        assertThat(host.port()).isEqualTo(2222);
        assertThat(host.knownHosts()).contains(LabInventory.knownHostsFile(dir));
        assertThat(host.keyFile()).contains(dir.resolve("id_ed25519"));
    }
}
