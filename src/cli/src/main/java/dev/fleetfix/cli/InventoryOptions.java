package dev.fleetfix.cli;

import dev.fleetfix.Secret;
import dev.fleetfix.inventory.ansible.InventoryInput;
import dev.fleetfix.inventory.ansible.InventoryService;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * Inventory options shared by every command that touches hosts ({@code @Mixin}): what the command line says, and
 * nothing else. {@link InventoryService} reads the inventory and selects from it as Ansible would; no command
 * writes into these fields (a resumed run gives the service its journal's sources and limit instead).
 */
public final class InventoryOptions {

    @Option(
            names = {"-i", "--inventory"},
            paramLabel = "SOURCE",
            description = "Ansible inventory: YAML, INI, an executable script, ansible-inventory --list JSON, a"
                    + " directory of these, or a host list 'a,b,'. group_vars/ and host_vars/ next to it are read."
                    + " Repeatable: sources merge in order, a later one winning for variables, as in Ansible."
                    + " Default: ansible.cfg's inventory, else the implicit localhost, reached without SSH.")
    List<Path> inventoryFiles = new ArrayList<>();

    @Option(
            names = "--inventory-from-ansible",
            description = "Run ansible-inventory -i SOURCE --list and use what it prints: any inventory plugin"
                    + " (aws_ec2, constructed, ...) works as in Ansible.")
    boolean fromAnsible;

    @Option(
            names = {"-l", "--limit"},
            paramLabel = "PATTERN",
            description = "Ansible host pattern: group, host, a:b, a:&b, a:!b, wildcards (redis-*), ~regex; an IPv6"
                    + " address (fe80::1) is one host; @FILE reads one pattern a line from FILE (Ansible's .retry"
                    + " files), with other terms too (r9,@failed.retry). A !term or &term matching nothing is warned"
                    + " about and ignored, as in Ansible (so all:!typo selects every host); unlike Ansible, a plain"
                    + " term matching nothing is refused. As in Ansible, a limit naming nothing ('', ',', an empty"
                    + " file) selects every host, with a warning.")
    String limit;

    @Option(
            names = "--list-hosts",
            description = "Print the hosts the inventory and --limit select, one per line, and connect to nothing.")
    boolean listHosts;

    @Option(
            names = {"-e", "--extra-vars"},
            paramLabel = "VARS",
            description = "Variables above every other (inventory, group_vars, host_vars, play vars), as in"
                    + " ansible-playbook: 'key=value key2=value2' (strings), a JSON or YAML mapping '{\"k\": 1}',"
                    + " or @FILE (YAML or JSON). Repeatable; the later wins.")
    List<String> extraVars = new ArrayList<>();

    @Option(
            names = {"-u", "--user"},
            paramLabel = "USER",
            description = "SSH user for hosts whose inventory sets none (ansible_user wins, as in Ansible);"
                    + " above ansible.cfg's remote_user.")
    String user;

    @Option(
            names = {"--private-key", "--key-file"},
            paramLabel = "FILE",
            description =
                    "SSH private key for hosts whose inventory sets none (above ansible.cfg's" + " private_key_file).")
    Path privateKey;

    @Option(
            names = {"-b", "--become"},
            description = "Run privileged commands with sudo on hosts whose inventory does not set ansible_become.")
    boolean become;

    @Option(
            names = "--become-user",
            paramLabel = "USER",
            description = "Only root: fleetfix writes /sys, /etc and service units. Accepted for Ansible's habit.")
    String becomeUser;

    @Mixin
    VaultOptions vault = new VaultOptions();

    @Mixin
    PromptOptions prompts = new PromptOptions();

    /** The options as {@link InventoryService} reads them; {@code -K} asked for when given. */
    InventoryInput source() {
        return source(prompts.becomePassword());
    }

    /** As {@link #source()}, for a command that never becomes root ({@link PromptOptions.NoBecome}): no {@code -K}. */
    InventoryInput sourceWithoutBecome() {
        return source(Optional.empty());
    }

    private InventoryInput source(Optional<Secret> becomePassword) {
        return new InventoryInput(
                inventoryFiles,
                fromAnsible,
                extraVars,
                Optional.ofNullable(user),
                Optional.ofNullable(privateKey),
                become,
                Optional.ofNullable(becomeUser),
                vault.vaultIds,
                vault.passwordFiles,
                becomePassword,
                prompts.vaultPassword());
    }

    /** {@code --limit}, as given. */
    Optional<String> limit() {
        return Optional.ofNullable(limit);
    }

    boolean listHosts() {
        return listHosts;
    }
}
