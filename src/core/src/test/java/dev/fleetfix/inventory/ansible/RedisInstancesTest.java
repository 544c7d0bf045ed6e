package dev.fleetfix.inventory.ansible;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.fleetfix.InputException;
import dev.fleetfix.inventory.Host;
import dev.fleetfix.inventory.HostPattern;
import dev.fleetfix.inventory.Inventory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RedisInstancesTest {
    private static final Path DIR = Path.of("src/core/src/test/resources/inventory");

    @TempDir
    Path dir;

    @Test
    void eachInstanceIsAHostOfItsOwnOnTheSameMachine() {
        Inventory inventory = InventoryLoader.load(DIR.resolve("instances.yaml"));
        assertThat(inventory.hosts())
                .extracting(Host::name)
                .containsExactly("cache-1@6379", "cache-1@6380", "cache-1@6381", "cache-2");
        Host b = inventory.host("cache-1@6380").orElseThrow();
        assertThat(b.address()).isEqualTo("10.0.0.1");
        assertThat(b.redis().address()).isEqualTo("10.0.0.1");
        assertThat(b.redis().port()).isEqualTo(6380);
        assertThat(b.redis().serviceUnit()).isEqualTo("redis-server@b");
        assertThat(b.vars())
                .containsEntry("redis_config", "/etc/redis/redis-b.conf")
                .containsEntry("redis_instance_of", "cache-1")
                .containsEntry("redis_instance_services", List.of("redis-server", "redis-server@b", "valkey-server@c"));
        assertThat(inventory.host("cache-1@6381").orElseThrow().redis().serviceUnit())
                .isEqualTo("valkey-server@c");
        assertThat(inventory.host("cache-2").orElseThrow().redis().port()).isEqualTo(6379);
        assertThat(inventory.groups().get("redis"))
                .containsExactly("cache-1@6379", "cache-1@6380", "cache-1@6381", "cache-2");
    }

    @Test
    void aPatternNamingTheHostSelectsEveryInstance() {
        Inventory inventory = InventoryLoader.load(DIR.resolve("instances.yaml"));
        assertThat(HostPattern.parse("cache-1").select(inventory))
                .extracting(Host::name)
                .containsExactly("cache-1@6379", "cache-1@6380", "cache-1@6381");
        assertThat(HostPattern.parse("cache-1@6380").select(inventory))
                .extracting(Host::name)
                .containsExactly("cache-1@6380");
    }

    @Test
    void anInstanceWithoutServiceOrNameUsesTheTemplateUnitOfItsPort() throws Exception {
        Path file = write("h:\n  redis_instances:\n    - {port: 6390}\n");
        assertThat(InventoryLoader.load(file).hosts().get(0).redis().serviceUnit())
                .isEqualTo("redis-server@6390");
    }

    @Test
    void anInstanceWithoutServiceFollowsTheTemplateOfTheHostsRedisService() throws Exception {
        Path file = write(
                """
                vk:
                  redis_service: valkey-server
                  redis_instances:
                    - {port: 6390}
                    - {port: 6391, name: b}
                    - {port: 6392, service: redis-server@x}
                """);
        assertThat(InventoryLoader.load(file).hosts())
                .extracting(h -> h.redis().serviceUnit())
                .containsExactly("valkey-server@6390", "valkey-server@b", "redis-server@x");
        assertThat(InventoryLoader.load(write(
                                "vk:\n  redis_service: valkey-server@\n  redis_instances:\n" + "    - {port: 6390}\n"))
                        .hosts()
                        .get(0)
                        .vars())
                .containsEntry("redis_service", "valkey-server@6390")
                .containsEntry("redis_instance_services", List.of("valkey-server@6390"));
    }

    @Test
    void anInstanceThatNamesNoServiceLeavesItToDiscoveryAndEachKnowsTheMachinesPorts() throws Exception {
        List<Host> hosts = InventoryLoader.load(
                        write("h:\n  redis_instances:\n    - {port: 6390}\n    - {port: 6391, name: b}\n"
                                + "    - {port: 6392, service: redis@x}\n"))
                .hosts();
        assertThat(hosts.get(0).vars()).doesNotContainKey("redis_service");
        assertThat(hosts.get(1).vars()).containsEntry("redis_service", "redis-server@b");
        assertThat(hosts.get(2).vars()).containsEntry("redis_service", "redis@x");
        assertThat(hosts)
                .allSatisfy(h -> assertThat(h.vars()).containsEntry("redis_instance_ports", List.of(6390, 6391, 6392)));
    }

    @Test
    void theTemplateIsTheHostsUnitUpToItsAt() {
        assertThat(List.of("redis-server", "valkey-server", "valkey-server@", "valkey-server@.service", "redis@main"))
                .extracting(RedisInstances::template)
                .containsExactly("redis-server@", "valkey-server@", "valkey-server@", "valkey-server@", "redis@");
    }

    @Test
    void badEntriesNameTheirPlace() throws Exception {
        assertThatThrownBy(() -> InventoryLoader.load(write("h:\n  redis_instances:\n    - {service: x}\n")))
                .isInstanceOf(InputException.class)
                .hasMessageEndingWith(":5:11: host h: each of redis_instances needs a port");
        assertThatThrownBy(() ->
                        InventoryLoader.load(write("h:\n  redis_instances:\n    - {port: 6380}\n    - {port: 6380}\n")))
                .hasMessageEndingWith(":6:18: host h: redis_instances: h:6380 is listed twice");
        assertThatThrownBy(() -> InventoryLoader.load(write("h:\n  redis_instances:\n    - {port: 0}\n")))
                .hasMessageEndingWith(":5:18: host h: redis_instances: port must be a number 1..65535, was 0");
        assertThatThrownBy(() -> InventoryLoader.load(write("h:\n  redis_instances:\n    - {port: 1, unit: x}\n")))
                .hasMessageEndingWith(
                        ":5:21: host h: redis_instances: unknown key 'unit'; use config, host, name, port, service");
        assertThatThrownBy(() -> InventoryLoader.load(write("h:\n  redis_instances: 6380\n")))
                .hasMessageEndingWith(
                        ":4:24: host h: redis_instances must be a non-empty list of {port: ..., service: ...}");
    }

    private Path write(String hostsYaml) throws Exception {
        Path file = dir.resolve("inventory.yaml");
        Files.writeString(file, "all:\n  hosts:\n" + hostsYaml.indent(4));
        return file;
    }
}
