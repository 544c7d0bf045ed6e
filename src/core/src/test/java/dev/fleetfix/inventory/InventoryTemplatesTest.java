package dev.fleetfix.inventory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.fleetfix.InputException;
import dev.fleetfix.Secret;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code {{ name }}} in inventory values: resolved as playbooks resolve it, the rest refused by file:line:col. */
class InventoryTemplatesTest {
    @TempDir
    Path dir;

    private Inventory load(String yaml) throws IOException {
        return InventoryLoader.load(Files.writeString(dir.resolve("inventory.yml"), yaml));
    }

    @Test
    void anAddressBuiltFromTheHostsNameAndAGroupVariableIsResolved() throws IOException {
        Inventory inventory = load(
                """
                all:
                  vars:
                    domain: "{{ dc }}.example.com"
                    ansible_host: "{{ inventory_hostname }}.{{ domain }}"
                    base_port: 6380
                  children:
                    redis:
                      vars: {dc: eu1}
                      hosts:
                        redis-1: {redis_port: "{{ base_port }}"}
                        redis-2.local: {dc: us2, role: "{{ inventory_hostname_short }} in {{ group_names }}"}
                """);

        Host one = inventory.host("redis-1").orElseThrow();
        Host two = inventory.host("redis-2.local").orElseThrow();
        assertThat(one.address()).isEqualTo("redis-1.eu1.example.com");
        assertThat(one.redis().port()).isEqualTo(6380);
        assertThat(one.vars()).containsEntry("domain", "eu1.example.com").containsEntry("redis_port", 6380);
        assertThat(two.address()).isEqualTo("redis-2.local.us2.example.com");
        assertThat(two.vars()).containsEntry("role", "redis-2 in [redis]");
    }

    @Test
    void aLookupIsRefusedWithItsPlaceNeverSentAsThePassword() throws IOException {
        assertThatThrownBy(
                        () -> load(
                                """
                        all:
                          hosts:
                            redis-1:
                              redis_password: "{{ lookup('env','REDIS_PW') }}"
                        """))
                .isInstanceOf(InputException.class)
                .hasMessage(dir.resolve("inventory.yml")
                        + ":4:23: host redis-1: redis_password: only plain variable names are supported in"
                        + " '{{ lookup('env','REDIS_PW') }}'");
    }

    @Test
    void whatTheTemplatesDoNotSupportIsRefusedByPlace() throws IOException {
        for (String value : List.of(
                "\"{{ domain | upper }}\"",
                "\"{{ undefined_thing }}\"",
                "\"{% if true %}x{% endif %}\"",
                "\"{{ unclosed\"",
                "\"{{ me }}\"")) {
            assertThatThrownBy(
                            () -> load("all:\n  vars: {domain: d}\n  hosts:\n    redis-1:\n      me: " + value + "\n"))
                    .as(value)
                    .isInstanceOf(InputException.class)
                    .hasMessageStartingWith(dir.resolve("inventory.yml") + ":5:11: host redis-1: me: ");
        }
    }

    @Test
    void aPasswordMayComeFromAnotherVariableButNeverLeaksIntoText() throws IOException {
        Inventory inventory = load(
                """
                all:
                  vars: {vault_redis_password: s3cret-from-group}
                  hosts:
                    redis-1:
                      redis_password: "{{ vault_redis_password }}"
                      ansible_become_password: "{{ redis_password }}"
                """);

        Host host = inventory.host("redis-1").orElseThrow();
        assertThat(host.redis().auth().password()).contains(Secret.of("s3cret-from-group"));
        assertThat(host.vars())
                .containsEntry("vault_redis_password", Secret.of("s3cret-from-group"))
                .containsEntry("ansible_become_password", Secret.of("s3cret-from-group"));
        assertThatThrownBy(
                        () -> load(
                                """
                        all:
                          hosts:
                            redis-1: {redis_password: pw, ansible_host: "{{ redis_password }}.example.com"}
                        """))
                .hasMessageContaining("ansible_host: '{{ redis_password }}' is a secret");
        assertThatThrownBy(
                        () -> load(
                                """
                        all:
                          hosts:
                            redis-1: {redis_password: pw, label: "{{ redis_password }}"}
                        """))
                .hasMessageContaining("label: '{{ redis_password }}' is a secret, and only another password variable");
    }

    @Test
    void anErrorInAGroupVarsFileNamesThatFile() throws IOException {
        Path inv = Files.createDirectories(dir.resolve("inv"));
        Files.writeString(inv.resolve("hosts.yml"), "all:\n  hosts:\n    redis-1:\n");
        Path groupVars = Files.createDirectories(inv.resolve("group_vars"));
        Files.writeString(groupVars.resolve("all.yml"), "ansible_host: \"{{ lookup('dig', 'x') }}\"\n");

        assertThatThrownBy(() -> InventorySources.load(inv.toString(), Optional.empty()))
                .isInstanceOf(InputException.class)
                .hasMessageStartingWith(groupVars.resolve("all.yml") + ":1:15: host redis-1: ansible_host: ");
    }
}
