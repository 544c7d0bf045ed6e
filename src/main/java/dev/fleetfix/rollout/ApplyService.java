package dev.fleetfix.rollout;

import dev.fleetfix.health.GateTarget;
import dev.fleetfix.health.Sleeper;
import dev.fleetfix.inventory.Host;
import dev.fleetfix.inventory.HostPattern;
import dev.fleetfix.inventory.Inventory;
import dev.fleetfix.playbook.Playbook;
import dev.fleetfix.playbook.PlaybookParser;
import dev.fleetfix.redis.RedisConnector;
import dev.fleetfix.redis.topology.Sentinels;
import dev.fleetfix.rollout.event.RunListener;
import dev.fleetfix.rollout.event.RunSummary;
import dev.fleetfix.steps.StepRegistry;
import dev.fleetfix.transport.RemoteShell;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * {@code fleetfix apply} as a service: read the playbook, plan it against the inventory (every
 * input error surfaces here, before any connection), then run it.
 */
public final class ApplyService {
    private final StepRegistry steps;
    private final Clock clock;
    private final Sleeper sleeper;
    private final RolloutPolicy policy;
    private final Duration pollInterval;

    public ApplyService(StepRegistry steps, Clock clock, Sleeper sleeper, RolloutPolicy policy, Duration pollInterval) {
        this.steps = steps;
        this.clock = clock;
        this.sleeper = sleeper;
        this.policy = policy;
        this.pollInterval = pollInterval;
    }

    /**
     * Parses and plans: plays select from the inventory, narrowed to {@code limited} (the hosts
     * {@code --limit} selects).
     *
     * @throws dev.fleetfix.InputException for any mistake in the playbook, its variables or options
     */
    public RunPlan plan(Path playbookFile, Inventory inventory, List<Host> limited, RunOptions options) {
        return plan(playbookFile, inventory, limited, options, HostOrdering.inventoryOrder());
    }

    /**
     * Plans with an ordering: {@link dev.fleetfix.rollout.TopologyOrdering} reads each
     * restarting play's replication (read-only) to put replicas first and split batches.
     */
    public RunPlan plan(
            Path playbookFile, Inventory inventory, List<Host> limited, RunOptions options, HostOrdering ordering) {
        Playbook playbook = new PlaybookParser(steps).parse(playbookFile);
        Set<String> allowed = limited.stream().map(Host::name).collect(Collectors.toSet());
        HostSelector selector = pattern -> HostPattern.parse(pattern).select(inventory).stream()
                .filter(h -> allowed.contains(h.name()))
                .toList();
        return new RunPlanner(steps, ordering).plan(playbook, selector, options);
    }

    public RunSummary run(
            RunPlan plan,
            Inventory inventory,
            Function<Host, RemoteShell> shells,
            RedisConnector redis,
            RunListener listener)
            throws InterruptedException {
        return run(plan, inventory, shells, redis, listener, RunControl.none());
    }

    /** Runs with host locks, a resume set and a stop flag. */
    public RunSummary run(
            RunPlan plan,
            Inventory inventory,
            Function<Host, RemoteShell> shells,
            RedisConnector redis,
            RunListener listener,
            RunControl control)
            throws InterruptedException {
        PlaybookRunner runner = new PlaybookRunner(
                new PlaybookRunner.Ports(shells, redis, primaries(inventory, redis), Sentinels.of(inventory, redis)),
                clock,
                sleeper,
                policy,
                pollInterval,
                control);
        return runner.run(plan, listener);
    }

    /** A replica's primary, found in the inventory by the address and port the replica reports. */
    static GateTarget.Primaries primaries(Inventory inventory, RedisConnector redis) {
        return (address, port, timeout) -> {
            Optional<Host> primary = inventory.hosts().stream()
                    .filter(h -> h.redis().port() == port)
                    .filter(h ->
                            h.redis().address().equals(address) || h.address().equals(address))
                    .findFirst();
            return primary.map(h -> redis.connect(h, timeout));
        };
    }
}
