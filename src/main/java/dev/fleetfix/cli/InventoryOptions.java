package dev.fleetfix.cli;

import dev.fleetfix.InputException;
import dev.fleetfix.inventory.AnsibleConfig;
import dev.fleetfix.inventory.AnsibleInventory;
import dev.fleetfix.inventory.Host;
import dev.fleetfix.inventory.HostPattern;
import dev.fleetfix.inventory.Inventory;
import dev.fleetfix.inventory.InventorySources;
import dev.fleetfix.report.InputWarnings;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * Inventory options shared by every command that touches hosts ({@code @Mixin}). Loading and
 * selection throw {@link dev.fleetfix.InputException}, which the CLI turns into exit code 2.
 *
 * <p>Hosts get their connection settings as Ansible would give them: the inventory and its
 * group_vars/host_vars first, then ansible.cfg ({@code remote_user}, {@code private_key_file},
 * {@code become}), then {@code ssh_args -J}, then the OpenSSH client configuration.
 */
public final class InventoryOptions {

    @Spec(Spec.Target.MIXEE)
    CommandSpec mixee;

    @Option(
            names = {"-i", "--inventory"},
            paramLabel = "SOURCE",
            description = "Ansible inventory: YAML, INI, an executable script, ansible-inventory --list JSON, a"
                    + " directory of these, or a host list 'a,b,'. group_vars/ and host_vars/ next to it are read."
                    + " Default: ansible.cfg's inventory, else the implicit localhost, reached without SSH.")
    Path inventoryFile;

    @Option(
            names = "--inventory-from-ansible",
            description = "Run ansible-inventory -i SOURCE --list and use what it prints: any inventory plugin"
                    + " (aws_ec2, constructed, ...) works as in Ansible.")
    boolean fromAnsible;

    @Option(
            names = "--limit",
            paramLabel = "PATTERN",
            description = "Ansible host pattern: group, host, a:b, a:&b, a:!b, wildcards (redis-*), ~regex.")
    String limit;

    @Option(
            names = "--list-hosts",
            description = "Print the hosts the inventory and --limit select, one per line, and connect to nothing.")
    boolean listHosts;

    @Spec(Spec.Target.MIXEE)
    CommandSpec spec;

    @Mixin
    VaultOptions vault = new VaultOptions();

    private AnsibleInventory loaded;
    private Inventory inventory;
    private Path playbookDir;

    /** The loaded inventory (read once), or the implicit localhost when there is no source. */
    public Inventory inventory() {
        if (inventory == null) {
            inventory = ansibleInventory().map(AnsibleInventory::inventory).orElseGet(Inventory::implicitLocalhost);
            // Ansible's words for what it accepts but doubts (a host or key written twice).
            if (spec != null) {
                inventory.warnings().forEach(InputWarnings.to(spec.commandLine().getErr()));
            }
        }
        return inventory;
    }

    /** The inventory with its group structure, with connection defaults applied; empty without a source. */
    public Optional<AnsibleInventory> ansibleInventory() {
        if (loaded == null) {
            loaded = load();
        }
        return Optional.ofNullable(loaded);
    }

    /** group_vars/ and host_vars/ next to the playbook count too, above the inventory's. */
    public void playbookDir(Path dir) {
        this.playbookDir = dir;
    }

    private AnsibleInventory load() {
        AnsibleSettings settings = settings();
        AnsibleConfig config = settings.config();
        String source = inventoryFile != null
                ? inventoryFile.toString()
                : config.inventory().orElse(null);
        if (source == null) {
            if (fromAnsible) {
                throw new InputException("--inventory-from-ansible needs -i SOURCE");
            }
            return null;
        }
        Optional<Path> playbook = Optional.ofNullable(playbookDir);
        AnsibleInventory read = fromAnsible
                ? InventorySources.fromAnsible("ansible-inventory", source, playbook, vault.keyring(settings))
                : InventorySources.load(source, playbook, vault.keyring(settings));
        Inventory hosts = config.applyTo(read.inventory());
        hosts = withJump(hosts, settings.sshArgs().jump());
        hosts = settings.sshConfig().applyTo(hosts);
        if (mixee != null) {
            PrintWriter err = mixee.commandLine().getErr();
            settings.notices().forEach(n -> err.println("fleetfix: note: " + n));
            err.flush();
        }
        return new AnsibleInventory(hosts, read.groups());
    }

    private static Inventory withJump(Inventory inventory, Optional<String> jump) {
        if (jump.isEmpty()) {
            return inventory;
        }
        List<Host> hosts = new ArrayList<>();
        for (Host h : inventory.hosts()) {
            hosts.add(h.toBuilder().jump(h.jump().or(() -> jump)).build());
        }
        return new Inventory(inventory.source(), hosts, inventory.groups());
    }

    private AnsibleSettings settings() {
        return mixee == null ? AnsibleSettings.none() : FleetfixCommand.settings(mixee.commandLine());
    }

    /** The hosts selected by {@code --limit} (all hosts without it), in inventory order. */
    public List<Host> selectHosts() {
        return HostPattern.parse(limit().orElse("all")).select(inventory());
    }

    public Optional<String> limit() {
        return Optional.ofNullable(limit);
    }

    public Optional<Path> inventoryFile() {
        return Optional.ofNullable(inventoryFile);
    }

    public boolean listHosts() {
        return listHosts;
    }
}
