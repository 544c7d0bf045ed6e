package dev.fleetfix.cli;

import dev.fleetfix.inventory.Host;
import dev.fleetfix.inventory.HostSelection;
import dev.fleetfix.redis.RedisConnector;
import dev.fleetfix.redis.topology.RedisDiscovery;
import dev.fleetfix.report.console.ShardListing;
import dev.fleetfix.rollout.shard.ShardPlan;
import dev.fleetfix.rollout.shard.ShardSpec;
import dev.fleetfix.rollout.shard.Sharding;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.Optional;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code --shard K/N} ({@code @Mixin} of apply, audit and bench): this run takes share K of N of the selected hosts,
 * never splitting a replication group. Every shard computes the same cut, so N processes (or N jobs of an engine) given
 * 1/N to N/N do every host once.
 */
public final class ShardOptions {
    /** How long a host's Redis may take to say its role, when the inventory does not name its group. */
    static final Duration DISCOVERY_TIMEOUT = Duration.ofSeconds(5);

    @Spec(Spec.Target.MIXEE)
    CommandSpec mixee;

    @Option(
            names = "--shard",
            paramLabel = "K/N",
            description = "Run on share K of N of the selected hosts (after --limit). A replication group (a primary"
                    + " and its replicas, the hosts of group sentinel, a Redis Cluster, or hosts with the same"
                    + " redis_group variable) is never split: groups the inventory does not name are read from the"
                    + " hosts' Redis (INFO replication), and a host whose Redis does not answer makes every shard"
                    + " refuse (exit 1); where redis_group and replication disagree every shard refuses (exit 2)."
                    + " The same K/N selects the same hosts while the inventory and replication do"
                    + " not change; fleetfix inventory --shards N --check prints the cut.")
    String shard;

    /** The shard asked for, if any. */
    Optional<ShardSpec> spec() {
        return Optional.ofNullable(shard).map(ShardSpec::parse);
    }

    /**
     * The selection narrowed to this shard's hosts, or as it is without {@code --shard}. Says on stderr which hosts the
     * shard took.
     *
     * @param forks how many hosts' Redis are asked at once
     * @param discover whether to ask the hosts' Redis (false for listings, which connect to nothing)
     * @throws Sharding.Refused when a host's group is unknown
     */
    HostSelection narrow(HostSelection selected, RedisConnector redis, int forks, boolean discover) {
        return narrow(selected, spec(), redis, forks, discover);
    }

    /**
     * The selection narrowed to {@code spec}'s hosts (apply's resume: the journal's shard when none is given).
     *
     * @see #narrow(HostSelection, RedisConnector, int, boolean)
     */
    HostSelection narrow(
            HostSelection selected, Optional<ShardSpec> spec, RedisConnector redis, int forks, boolean discover) {
        if (spec.isEmpty()) {
            return selected;
        }
        if (discover) {
            // the discovery reads their Redis: what it cannot evaluate stops it before any is asked
            selected.hosts().forEach(Host::requireUsable);
        }
        Sharding sharding = discover
                ? Sharding.discovering(new RedisDiscovery(selected.inventory(), redis, DISCOVERY_TIMEOUT, forks))
                : Sharding.fromInventory();
        ShardPlan plan =
                sharding.plan(selected.inventory(), selected.hosts(), spec.get().count());
        PrintWriter err = mixee.commandLine().getErr();
        err.println("fleetfix: " + ShardListing.notice(plan, spec.get()));
        err.flush();
        return selected.narrowedTo(plan.hosts(spec.get()));
    }
}
