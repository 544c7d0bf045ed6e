package dev.fleetfix.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fleetfix.inventory.ansible.vault.VaultCipher;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An inventory shared with Ansible, as a user runs fleetfix on it: templates fleetfix never uses and a vaulted
 * group_vars file are read as Ansible reads them, lazily. Listings print templates as written and need no vault
 * password; a run refuses only what it uses, with exit 2 and the place, before any host is contacted.
 */
class LazyVariablesCliTest {
    private static final String PASSWORD = "correct horse battery staple";
    private static final String SECRET = "planted-vault-secret-77e1";
    private static final String INTERPRETER = "ansible_python_interpreter=\"{{ ansible_playbook_python }}\"";

    @TempDir
    Path dir;

    private final List<String> contacted = new CopyOnWriteArrayList<>();

    private CliRun fleetfix(String... args) {
        Adapters adapters = Adapters.builder()
                .shells(host -> {
                    contacted.add(host.name());
                    throw new IllegalStateException("no host may be contacted");
                })
                .redis((host, timeout) -> {
                    contacted.add(host.name());
                    throw new IllegalStateException("no host may be contacted");
                })
                .build();
        return CliRun.of(Main.commandLine(new AnsibleSettings(Map.of(), dir, dir, true), adapters), args);
    }

    private Path write(String name, String text) throws IOException {
        Path file = dir.resolve(name);
        Files.createDirectories(file.getParent());
        Files.writeString(file, text);
        return file;
    }

    private static String encrypt(String plain) {
        return VaultCipher.encrypt(
                plain.getBytes(StandardCharsets.UTF_8), PASSWORD.getBytes(StandardCharsets.UTF_8), Optional.empty());
    }

    private Path inventory() throws IOException {
        return write("hosts.ini", "[redis]\nr1 ansible_host=10.0.0.1 " + INTERPRETER + "\nr2 ansible_host=10.0.0.2\n");
    }

    private Path vaultedGroupVars() throws IOException {
        return write(
                "group_vars/redis.yml",
                encrypt("redis_password: " + SECRET + "\nredis_port: 6390\nredis_group: \"{{ site }}\"\nsite: eu1\n"));
    }

    @Test
    void anUnusedTemplateIsListedAsWrittenAsAnsibleInventoryDoes() throws IOException {
        String inventory = inventory().toString();

        CliRun list = fleetfix("inventory", "--list", "-i", inventory);
        CliRun host = fleetfix("inventory", "--host", "r1", "-i", inventory);
        CliRun graph = fleetfix("inventory", "--graph", "-i", inventory);
        CliRun hosts =
                fleetfix("apply", ShippedPlaybook.THP_OFF.toString(), "--list-hosts", "-i", inventory, "-l", "redis");

        for (CliRun run : List.of(list, host, graph, hosts)) {
            assertThat(run.exitCode()).as(run.toString()).isZero();
        }
        assertThat(list.stdout())
                .as(list.toString())
                .contains("\"ansible_python_interpreter\": \"{{ ansible_playbook_python }}\"");
        assertThat(host.stdout())
                .as(host.toString())
                .isEqualTo(
                        """
                        {
                            "ansible_host": "10.0.0.1",
                            "ansible_python_interpreter": "{{ ansible_playbook_python }}"
                        }
                        """);
        assertThat(graph.stdout()).as(graph.toString()).contains("  |  |--r1\n");
        assertThat(hosts.stdout()).as(hosts.toString()).contains("      r1\n", "      r2\n");
        assertThat(contacted).isEmpty();
    }

    @Test
    void aTemplateThatARunEvaluatesIsListedAsWrittenAsAnsibleInventoryDoes() throws IOException {
        Path inventory = write(
                "hosts.yml",
                """
                all:
                  vars:
                    domain: example.net
                  hosts:
                    r1: {ansible_host: "{{ inventory_hostname }}.{{ domain }}"}
                    r2: {ansible_host: "{{ inventory_hostname }}.{{ domain }}"}
                  children:
                    eu:
                      hosts:
                        r2: {ansible_host: 10.0.0.2}
                """);

        CliRun list = fleetfix("inventory", "--list", "-i", inventory.toString());
        CliRun host = fleetfix("inventory", "--host", "r1", "-i", inventory.toString());

        assertThat(list.exitCode()).as(list.toString()).isZero();
        assertThat(list.stdout())
                .contains("\"ansible_host\": \"{{ inventory_hostname }}.{{ domain }}\"")
                // the more specific group value wins, and is printed as it is (no template)
                .contains("\"ansible_host\": \"10.0.0.2\"");
        assertThat(host.stdout())
                .as(host.toString())
                .contains("\"ansible_host\": \"{{ inventory_hostname }}.{{ domain }}\"");
        assertThat(contacted).isEmpty();
    }

    @Test
    void anAddressThatCannotBeEvaluatedRefusesOnlyARunThatContactsTheHost() throws IOException {
        Path inventory = write(
                "hosts.yml",
                """
                all:
                  hosts:
                    r1: {ansible_host: 10.0.0.1}
                    r2: {ansible_host: "{{ inventory_hostname | upper }}"}
                """);

        CliRun listing = fleetfix("inventory", "--list", "-i", inventory.toString());
        CliRun run = fleetfix("audit", "-F", "none", "-i", inventory.toString());

        assertThat(listing.exitCode()).as(listing.toString()).isZero();
        assertThat(listing.stdout()).contains("\"ansible_host\": \"{{ inventory_hostname | upper }}\"");
        assertThat(run.exitCode()).as(run.toString()).isEqualTo(ExitCode.USAGE);
        assertThat(run.stderr())
                .as(run.toString())
                .contains(inventory + ":4:24: host r2: ansible_host: only plain variable names are supported in"
                        + " '{{ inventory_hostname | upper }}'");
        assertThat(contacted).isEmpty();
    }

    @Test
    void listingsOfAPlaybookNeedNoVaultPassword() throws IOException {
        String inventory = inventory().toString();
        vaultedGroupVars();
        String playbook = ShippedPlaybook.THP_OFF.toString();

        for (String listing : List.of("--list-tasks", "--list-tags", "--list-hosts", "--syntax-check")) {
            CliRun run = fleetfix("apply", playbook, listing, "-i", inventory, "-l", "redis");
            assertThat(run.exitCode()).as(run.toString()).isZero();
            assertThat(run.stderr()).as(run.toString()).doesNotContain("vault");
        }
        CliRun graph = fleetfix("inventory", "--graph", "-i", inventory);
        assertThat(graph.exitCode()).as(graph.toString()).isZero();
        assertThat(contacted).isEmpty();
    }

    @Test
    void printingTheVariablesOfAVaultedFileNeedsItsPasswordAsAnsibleInventoryDoes() throws IOException {
        String inventory = inventory().toString();
        Path vars = vaultedGroupVars();

        CliRun refused = fleetfix("inventory", "--host", "r1", "-i", inventory);
        CliRun read = fleetfix(
                "inventory",
                "--host",
                "r1",
                "-i",
                inventory,
                "--vault-password-file",
                write("pw", PASSWORD + "\n").toString());

        assertThat(refused.exitCode()).as(refused.toString()).isEqualTo(ExitCode.USAGE);
        assertThat(refused.stderr())
                .as(refused.toString())
                .contains(vars + ":1: this is encrypted with ansible-vault and no vault password was given");
        assertThat(read.exitCode()).as(read.toString()).isZero();
        // every value of a vaulted file is a secret, whatever its name (issue 42 finding 7)
        assertThat(read.stdout())
                .as(read.toString())
                .contains("\"redis_port\": \"******\"", "\"site\": \"******\"", "\"redis_group\": \"******\"");
        assertThat(read.toString()).doesNotContain(SECRET).doesNotContain("eu1");
    }

    @Test
    void aCheckRunWithoutThePasswordOfAValueItUsesIsRefusedNamingTheFileBeforeAnyHostIsTouched() throws IOException {
        String inventory = inventory().toString();
        Path vars = vaultedGroupVars();

        CliRun run = fleetfix("apply", ShippedPlaybook.THP_OFF.toString(), "--check", "-i", inventory);

        assertThat(run.exitCode()).as(run.toString()).isEqualTo(ExitCode.USAGE);
        assertThat(run.stderr())
                .as(run.toString())
                .contains(vars + ":1: this is encrypted with ansible-vault and no vault password was given: pass"
                        + " --vault-password-file FILE");
        assertThat(contacted).isEmpty();
    }

    @Test
    void aValueFromAVaultedFileIsNeverSplicedIntoACommand() throws IOException {
        Path inventory = inventory();
        vaultedGroupVars();
        Path playbook = write("play.yaml", "- hosts: redis\n  steps:\n    - command: {cmd: \"echo {{ site }}\"}\n");

        CliRun run = fleetfix(
                "apply",
                playbook.toString(),
                "--check",
                "-i",
                inventory.toString(),
                "--vault-password-file",
                write("pw", PASSWORD + "\n").toString());

        assertThat(run.exitCode()).as(run.toString()).isEqualTo(ExitCode.USAGE);
        // the refusal quotes the template, never the value
        assertThat(run.stderr())
                .as(run.toString())
                .contains("play.yaml:3:7: command.cmd (host r1): '{{ site }}' is a secret");
        assertThat(run.toString()).doesNotContain("eu1");
        assertThat(contacted).isEmpty();
    }

    @Test
    void anInlineVaultedValueIsListedAsItsCiphertextWithoutAPassword() throws IOException {
        String envelope = encrypt(SECRET);
        Path inventory =
                write("hosts.yml", "all:\n  hosts:\n    r1:\n      redis_password: !vault |\n" + envelope.indent(8));

        CliRun run = fleetfix("inventory", "--host", "r1", "-i", inventory.toString());

        assertThat(run.exitCode()).as(run.toString()).isZero();
        assertThat(run.stdout())
                .as(run.toString())
                .contains("\"__ansible_vault\": \"" + envelope.strip().replace("\n", "\\n"));
        assertThat(run.toString()).doesNotContain(SECRET);
    }
}
