package dev.fleetfix.inventory.ansible;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.fleetfix.InputException;
import dev.fleetfix.Secret;
import dev.fleetfix.Unevaluated;
import dev.fleetfix.inventory.Host;
import dev.fleetfix.inventory.Inventory;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code {{ name }}} in inventory values: resolved as playbooks resolve it; the rest kept as written, and refused by
 * file:line:col where a run uses it.
 */
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
        // what a run uses is evaluated; what a listing prints is as written, as ansible-inventory prints it
        assertThat(one.printableVars())
                .containsEntry("ansible_host", "{{ inventory_hostname }}.{{ domain }}")
                .containsEntry("redis_port", "{{ base_port }}")
                .containsEntry("base_port", 6380);
    }

    @Test
    void aLookupIsKeptAsWrittenNeverSentAsThePasswordAndARunRefusesItByPlace() throws IOException {
        Host host =
                load("""
                all:
                  hosts:
                    redis-1:
                      redis_password: "{{ lookup('env','REDIS_PW') }}"
                """)
                        .host("redis-1")
                        .orElseThrow();

        // never the text as the password: the host has none until the run refuses it
        assertThat(host.redis().auth().password()).isEmpty();
        assertThat(host.vars().get("redis_password")).hasToString("{{ lookup('env','REDIS_PW') }}");
        assertThatThrownBy(host::requireUsable)
                .isInstanceOf(InputException.class)
                .hasMessage(dir.resolve("inventory.yml")
                        + ":4:23: host redis-1: redis_password: only plain variable names are supported in"
                        + " '{{ lookup('env','REDIS_PW') }}'");
    }

    @Test
    void whatTheTemplatesDoNotSupportIsKeptAsWrittenWithTheErrorAtItsPlace() throws IOException {
        for (String value : List.of(
                "{{ domain | upper }}",
                "{{ undefined_thing }}",
                "{% if true %}x{% endif %}",
                "{{ unclosed",
                "{{ me }}")) {
            Host host = load("all:\n  vars: {domain: d}\n  hosts:\n    redis-1:\n      me: \"" + value + "\"\n")
                    .host("redis-1")
                    .orElseThrow();

            // a variable fleetfix does not use is no reason to refuse the host, as in Ansible
            assertThat(host.requireUsable()).as(value).isSameAs(host);
            assertThat(host.vars().get("me")).as(value).isInstanceOf(Unevaluated.class);
            Unevaluated me = (Unevaluated) host.vars().get("me");
            assertThat(me.written()).as(value).isEqualTo(value);
            assertThat(me.problem())
                    .as(value)
                    .hasMessageStartingWith(dir.resolve("inventory.yml") + ":5:11: host redis-1: me: ");
        }
    }

    @Test
    void aConnectionOrRedisSettingThatCannotBeEvaluatedMakesTheHostUnusableOnly() throws IOException {
        Inventory inventory = load(
                """
                all:
                  vars:
                    ansible_python_interpreter: "{{ ansible_playbook_python }}"
                  hosts:
                    ok: {ansible_host: 10.0.0.1}
                    address: {ansible_host: "{{ inventory_hostname | upper }}"}
                    port: {redis_port: "{{ base | int }}"}
                    group: {redis_group: "{{ undefined }}"}
                    derived: {ansible_user: "{{ login }}", login: "{{ lookup('env', 'USER') }}"}
                """);

        Host ok = inventory.host("ok").orElseThrow();
        assertThat(ok.requireUsable().address()).isEqualTo("10.0.0.1");
        assertThat(ok.vars().get("ansible_python_interpreter")).hasToString("{{ ansible_playbook_python }}");
        Path file = dir.resolve("inventory.yml");
        assertThatThrownBy(() -> inventory.host("address").orElseThrow().requireUsable())
                .hasMessage(file + ":6:29: host address: ansible_host: only plain variable names are supported in"
                        + " '{{ inventory_hostname | upper }}'");
        assertThatThrownBy(() -> inventory.host("port").orElseThrow().requireUsable())
                .hasMessageStartingWith(file + ":7:24: host port: redis_port: ");
        assertThatThrownBy(() -> inventory.host("group").orElseThrow().requireUsable())
                .hasMessage(file + ":8:26: host group: redis_group: undefined variable 'undefined'");
        // a variable that uses one that cannot be evaluated names both places
        assertThatThrownBy(() -> inventory.host("derived").orElseThrow().requireUsable())
                .hasMessageStartingWith(file + ":9:29: host derived: ansible_user: 'login' cannot be evaluated: " + file
                        + ":9:51: host derived: login: only plain variable names");
    }

    @Test
    void magicVariablesWithAMeaningOnTheControlNodeResolveWhereUsed() throws IOException {
        Inventory inventory = load(
                """
                all:
                  children:
                    redis:
                      hosts:
                        redis-1:
                          ansible_ssh_private_key_file: "{{ inventory_dir }}/keys/{{ inventory_hostname }}"
                          source: "{{ inventory_file }}"
                          members: "{{ groups }}"
                          interpreter: "{{ ansible_playbook_python }}"
                """);

        Host host = inventory.host("redis-1").orElseThrow().requireUsable();
        Path file = dir.resolve("inventory.yml").toAbsolutePath().normalize();
        assertThat(host.keyFile()).contains(file.getParent().resolve("keys/redis-1"));
        assertThat(host.vars().get("source")).isEqualTo(file.toString());
        assertThat(host.vars().get("members"))
                .isEqualTo(java.util.Map.of(
                        "all", List.of("redis-1"), "ungrouped", List.of(), "redis", List.of("redis-1")));
        // fleetfix runs no Python: left as written until something uses it
        assertThat(host.vars().get("interpreter")).hasToString("{{ ansible_playbook_python }}");
    }

    @Test
    void aVariableDefinedThroughItselfIsKeptAsWritten() throws IOException {
        Host host = load("all:\n  hosts:\n    redis-1: {a: \"{{ b }}\", b: \"{{ a }}\", redis_service: \"{{ a }}\"}\n")
                .host("redis-1")
                .orElseThrow();

        assertThat(host.vars().get("a")).hasToString("{{ b }}");
        assertThatThrownBy(host::requireUsable).hasMessageContaining("is defined through itself");
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
        // a secret never lands in a value that listings print: kept as written, refused where used
        Host address =
                load("""
                all:
                  hosts:
                    redis-1: {redis_password: pw, ansible_host: "{{ redis_password }}.example.com"}
                """)
                        .host("redis-1")
                        .orElseThrow();
        assertThat(address.address()).isEqualTo("redis-1");
        assertThatThrownBy(address::requireUsable)
                .hasMessageContaining("ansible_host: '{{ redis_password }}' is a secret");
        Host label =
                load("""
                all:
                  hosts:
                    redis-1: {redis_password: pw, label: "{{ redis_password }}"}
                """)
                        .host("redis-1")
                        .orElseThrow();
        assertThat(label.vars().get("label")).hasToString("{{ redis_password }}");
        assertThat(((Unevaluated) label.vars().get("label")).problem())
                .hasMessageContaining("label: '{{ redis_password }}' is a secret, and only another password variable");
    }

    @Test
    void anErrorInAGroupVarsFileNamesThatFile() throws IOException {
        Path inv = Files.createDirectories(dir.resolve("inv"));
        Files.writeString(inv.resolve("hosts.yml"), "all:\n  hosts:\n    redis-1:\n");
        Path groupVars = Files.createDirectories(inv.resolve("group_vars"));
        Files.writeString(groupVars.resolve("all.yml"), "ansible_host: \"{{ lookup('dig', 'x') }}\"\n");

        Host host = InventorySources.load(inv.toString(), Optional.empty())
                .inventory()
                .host("redis-1")
                .orElseThrow();
        assertThatThrownBy(host::requireUsable)
                .isInstanceOf(InputException.class)
                .hasMessageStartingWith(groupVars.resolve("all.yml") + ":1:15: host redis-1: ansible_host: ");
    }
}
