package dev.fleetfix.cli;

import dev.fleetfix.InputException;
import dev.fleetfix.inventory.AnsibleInventory;
import dev.fleetfix.inventory.Host;
import dev.fleetfix.report.InventoryListing;
import java.io.PrintWriter;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code fleetfix inventory}: the inventory as fleetfix reads it, in ansible-inventory's shapes. Connects to nothing. */
@Command(
        name = "inventory",
        mixinStandardHelpOptions = true,
        description = {
            "Shows the inventory as fleetfix reads it, in the shapes of ansible-inventory, so the two can be diffed:",
            "--list (JSON with _meta.hostvars), --graph [GROUP] (tree), --host NAME (one host's variables).",
            "Connects to nothing."
        })
final class InventoryCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Mixin
    InventoryOptions inventory;

    @ArgGroup(multiplicity = "1")
    Action action;

    static final class Action {
        @Option(names = "--list", description = "All groups and host variables, as ansible-inventory --list.")
        boolean list;

        @Option(
                names = "--graph",
                arity = "0..1",
                fallbackValue = "all",
                paramLabel = "GROUP",
                description = "The group tree from GROUP (default all), as ansible-inventory --graph.")
        String graph;

        @Option(
                names = "--host",
                paramLabel = "NAME",
                description = "One host's variables, as ansible-inventory --host.")
        String host;
    }

    @Override
    public Integer call() {
        AnsibleInventory loaded = inventory
                .ansibleInventory()
                .orElseThrow(() -> new InputException("no inventory: give -i SOURCE (or inventory in ansible.cfg)"));
        PrintWriter out = spec.commandLine().getOut();
        if (action.host != null) {
            Host host = loaded.inventory()
                    .host(action.host)
                    .orElseThrow(() -> new InputException("host " + action.host + " is not in the inventory"));
            out.print(InventoryListing.host(host));
        } else if (action.graph != null) {
            if (!loaded.groups().containsKey(action.graph)) {
                throw new InputException("group " + action.graph + " is not in the inventory");
            }
            out.print(InventoryListing.graph(loaded, action.graph));
        } else {
            List<Host> hosts = inventory.selectHosts();
            out.print(InventoryListing.list(loaded, hosts));
        }
        out.flush();
        return ExitCode.OK;
    }
}
