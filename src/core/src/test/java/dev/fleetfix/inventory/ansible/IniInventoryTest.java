package dev.fleetfix.inventory.ansible;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import dev.fleetfix.InputException;
import dev.fleetfix.inventory.Host;
import dev.fleetfix.inventory.Inventory;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The INI reader on the edges Ansible's ini plugin has: what it refuses, and where fleetfix refuses more. */
class IniInventoryTest {
    @TempDir
    Path dir;

    private Inventory load(String ini) throws IOException {
        Path file = dir.resolve("hosts.ini");
        Files.writeString(file, ini);
        return InventorySources.load(file.toString(), Optional.empty()).inventory();
    }

    @Test
    void aSectionNeverClosedIsRefusedAsAnsibleRefusesIt() {
        assertThatThrownBy(() -> load("[redis\nr1\n"))
                .isInstanceOf(InputException.class)
                .hasMessageEndingWith("hosts.ini:1: section [redis is never closed: a section is [group]");
    }

    @Test
    void iniLinesInAYamlNamedFileAreReadAsIniAsAnsibleFallsBackToItsIniPlugin() throws IOException {
        Path file = dir.resolve("inventory.yaml");
        Files.writeString(file, "spine1 ansible_host=10.0.0.1\nleaf1 ansible_host=10.0.0.2\n\n[spine]\nspine1\n");

        Inventory inventory =
                InventorySources.load(file.toString(), Optional.empty()).inventory();

        assertThat(inventory.hosts())
                .extracting(Host::name, Host::address)
                .containsExactlyInAnyOrder(tuple("spine1", "10.0.0.1"), tuple("leaf1", "10.0.0.2"));
    }

    @Test
    void aYamlNamedFileOfIniLinesAfterADocumentMarkerIsRefusedAsAnsibleRefusesIt() throws IOException {
        Path file = dir.resolve("inventory.yaml");
        Files.writeString(file, "---\nspine1 ansible_host=10.0.0.1\n");

        assertThatThrownBy(() -> InventorySources.load(file.toString(), Optional.empty()))
                .isInstanceOf(InputException.class)
                .hasMessageEndingWith(
                        "inventory.yaml:1: host \"---\": this looks like a YAML file, not an INI inventory");
    }

    @Test
    void aBracketedIpv6HostWithAPortIsAHostNotASection() throws IOException {
        Inventory inventory = load("[redis]\n[2001:db8::1]:2222\n");

        assertThat(inventory.hosts()).singleElement().satisfies(h -> {
            assertThat(h.name()).isEqualTo("2001:db8::1");
            assertThat(h.port()).isEqualTo(2222);
        });
    }

    @Test
    void aVariableAloneOnAHostLineIsRefusedWhereAnsibleMakesAHostOfIt() {
        assertThatThrownBy(() -> load("[redis]\nr1\nredis_port=6380\n"))
                .isInstanceOf(InputException.class)
                .hasMessageEndingWith("hosts.ini:3: host \"redis_port=6380\" is a key=value with no host before it: a"
                        + " host's variables follow its name on its line, a group's go under [redis:vars]");
    }

    @Test
    void bytesThatAreNotUtf8AreRefusedAtTheirLine() throws IOException {
        Path file = dir.resolve("hosts.ini");
        Files.write(file, "[redis]\nr1\nr\u00ff2\n".getBytes(StandardCharsets.ISO_8859_1));

        assertThatThrownBy(() -> InventorySources.load(file.toString(), Optional.empty()))
                .isInstanceOf(InputException.class)
                .hasMessageEndingWith("hosts.ini:3: inventory is not UTF-8 text");
    }

    @Test
    void aHostListKeepsBracketsAsPartOfTheNameAsAnsiblesHostListPluginDoes() {
        Inventory inventory =
                InventorySources.load("host[0:10],db:2222", Optional.empty()).inventory();

        assertThat(inventory.hosts()).extracting(Host::name).containsExactly("host[0:10]", "db");
        assertThat(inventory.host("db").orElseThrow().port()).isEqualTo(2222);
    }

    @Test
    void severalSourcesMergeInOrderTheLaterWinningForVariables() throws IOException {
        Path a = dir.resolve("a.ini");
        Path b = dir.resolve("b.ini");
        Files.writeString(a, "[redis]\nr1 a=1 b=1\n");
        Files.writeString(b, "[redis]\nr1 a=2\nr2\n");

        Inventory inventory = InventorySources.load(List.of(a.toString(), b.toString()), Optional.empty())
                .inventory();

        assertThat(inventory.groups().get("redis")).containsExactly("r1", "r2");
        assertThat(inventory.host("r1").orElseThrow().vars())
                .containsEntry("a", 2)
                .containsEntry("b", 1);
    }
}
