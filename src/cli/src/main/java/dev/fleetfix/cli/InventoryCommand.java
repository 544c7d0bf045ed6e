package dev.fleetfix.cli;

import dev.fleetfix.InputException;
import dev.fleetfix.inventory.AnsibleInventory;
import dev.fleetfix.inventory.Host;
import dev.fleetfix.inventory.HostPattern;
import dev.fleetfix.inventory.ansible.InventoryService;
import dev.fleetfix.redis.topology.RedisDiscovery;
import dev.fleetfix.report.console.InventoryListing;
import dev.fleetfix.report.console.ShardListing;
import dev.fleetfix.rollout.shard.ShardSpec;
import dev.fleetfix.rollout.shard.Sharding;
import java.io.PrintWriter;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code fleetfix inventory}: the inventory as fleetfix reads it, in ansible-inventory's shapes, and how {@code --shard}
 * cuts it. Connects to nothing but for {@code --shards N --check}.
 */
@Command(
        name = "inventory",
        mixinStandardHelpOptions = true,
        description = {
            "Shows the inventory as fleetfix reads it, in the shapes of ansible-inventory, so the two can be diffed:",
            "--list (JSON with _meta.hostvars; --yaml: a YAML inventory, as ansible-inventory --list --yaml),",
            "--graph [GROUP] (tree), --host NAME (one host's variables; --yaml: in YAML).",
            "--shards N prints how --shard K/N cuts the selected hosts (after --limit) into N shards that keep",
            "replication groups whole. Connects to nothing, except --shards N --check, which asks each host's",
            "Redis for its replication where the inventory names no group (redis_group), as --shard K/N does."
        })
final class InventoryCommand implements Callable<Integer>, PromptOptions.NoBecome {
    @Spec
    CommandSpec spec;

    @Mixin
    InventoryOptions inventory;

    @Mixin
    ForksOption forks;

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
                names = "--shards",
                paramLabel = "N",
                description = "The hosts of each of N shards, one replication group a line, as --shard K/N of apply,"
                        + " audit and bench takes them. From the inventory only, unless --check.")
        Integer shards;

        @Option(
                names = "--host",
                paramLabel = "NAME",
                description = "One host's variables, as ansible-inventory --host.")
        String host;
    }

    @Option(
            names = "--check",
            description = "With --shards: ask each host's Redis (INFO replication, CLUSTER NODES, read-only) for the"
                    + " groups the inventory does not name, as --shard K/N does. A host that does not answer is"
                    + " named and nothing is cut (exit 1).")
    boolean check;

    @Option(
            names = "--yaml",
            description = "With --list or --host: YAML, as ansible-inventory --yaml. --list --yaml is a YAML inventory"
                    + " (groups with their children and hosts, each host's variables at its first place), not the"
                    + " JSON's shape.")
    boolean yaml;

    private final Adapters adapters;

    InventoryCommand(Adapters adapters) {
        this.adapters = adapters;
    }

    @Override
    public Integer call() {
        if (check && action.shards == null) {
            throw new InputException("--check: only with --shards N (the other listings read files only)");
        }
        if (yaml && !action.list && action.host == null) {
            throw new InputException("--yaml: only with --list or --host");
        }
        InventoryService inventories = FleetfixCommand.inventoryService(spec.commandLine());
        AnsibleInventory loaded = inventories
                .read(inventory.sourceWithoutBecome(), Optional.empty())
                .orElseThrow(() -> new InputException("no inventory: give -i SOURCE (or inventory in ansible.cfg)"));
        PrintWriter out = spec.commandLine().getOut();
        if (action.shards != null) {
            Sharding sharding = check
                    ? Sharding.discovering(new RedisDiscovery(
                            loaded.inventory(), adapters.redis(), ShardOptions.DISCOVERY_TIMEOUT, forks.forks()))
                    : Sharding.fromInventory();
            // the count is checked as --shard K/N checks it
            int count = new ShardSpec(1, action.shards).count();
            List<Host> selected = inventories
                    .select(loaded.inventory(), inventory.sourceWithoutBecome(), inventory.limit())
                    .hosts();
            if (check) {
                // it reads their Redis: what it cannot evaluate stops it before any is asked
                selected.forEach(Host::requireUsable);
            }
            out.print(ShardListing.render(sharding.plan(loaded.inventory(), selected, count)));
        } else if (action.host != null) {
            Host host = oneHost(loaded, action.host);
            out.print(yaml ? InventoryListing.hostYaml(host) : InventoryListing.host(host));
        } else if (action.graph != null) {
            if (!loaded.groups().containsKey(action.graph)) {
                throw new InputException("group " + action.graph + " is not in the inventory");
            }
            out.print(InventoryListing.graph(loaded, action.graph));
        } else {
            // an inventory of groups with no host yet (kubespray's sample) lists its groups, as ansible-inventory does;
            // a limit still selects, and refuses when it matches nothing
            List<Host> hosts =
                    inventory.limit().isEmpty() && loaded.inventory().hosts().isEmpty()
                            ? List.of()
                            : inventories
                                    .select(loaded.inventory(), inventory.sourceWithoutBecome(), inventory.limit())
                                    .hosts();
            out.print(yaml ? InventoryListing.listYaml(loaded, hosts) : InventoryListing.list(loaded, hosts));
        }
        out.flush();
        return ExitCode.OK;
    }

    /**
     * The host {@code --host} names: as ansible-inventory, a pattern that selects exactly one host (a group of one
     * host is that host); one that selects none or several is refused.
     */
    private static Host oneHost(AnsibleInventory loaded, String name) {
        Optional<Host> exact = loaded.inventory().host(name);
        if (exact.isPresent()) {
            return exact.get();
        }
        List<Host> hosts;
        try {
            hosts = HostPattern.parse(name).select(loaded.inventory(), warning -> {});
        } catch (InputException e) {
            throw new InputException("host " + name + " is not in the inventory");
        }
        if (hosts.size() != 1) {
            throw new InputException("--host " + name + " selects " + hosts.size() + " hosts ("
                    + String.join(", ", hosts.stream().limit(5).map(Host::name).toList())
                    + (hosts.size() > 5 ? ", ..." : "") + "): give a single host, as ansible-inventory wants");
        }
        return hosts.get(0);
    }
}
