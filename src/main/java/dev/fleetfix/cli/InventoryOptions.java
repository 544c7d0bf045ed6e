package dev.fleetfix.cli;

import dev.fleetfix.inventory.Host;
import dev.fleetfix.inventory.HostPattern;
import dev.fleetfix.inventory.Inventory;
import dev.fleetfix.inventory.InventoryLoader;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * Inventory options shared by every command that touches hosts ({@code @Mixin}). Loading and
 * selection throw {@link dev.fleetfix.InputException}, which the CLI turns into exit code 2.
 */
public final class InventoryOptions {

    @Option(
            names = {"-i", "--inventory"},
            paramLabel = "FILE",
            description = "Ansible YAML inventory. Default: the implicit localhost, reached without SSH.")
    Path inventoryFile;

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

    private Inventory inventory;

    /** The loaded inventory (read once), or the implicit localhost when no {@code -i} was given. */
    public Inventory inventory() {
        if (inventory == null) {
            inventory = inventoryFile == null ? Inventory.implicitLocalhost() : InventoryLoader.load(inventoryFile);
            // Ansible's words for what it accepts but doubts (a host or key written twice).
            if (spec != null) {
                inventory.warnings().forEach(w -> spec.commandLine().getErr().println("[WARNING]: " + w));
            }
        }
        return inventory;
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
