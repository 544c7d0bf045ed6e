package dev.fleetfix.rollout.plan;

import dev.fleetfix.inventory.Connection;
import dev.fleetfix.inventory.Host;
import dev.fleetfix.playbook.Play;
import dev.fleetfix.playbook.Step;
import dev.fleetfix.redis.topology.Topology;
import dev.fleetfix.redis.topology.TopologyDiscovery;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Topology-aware batches for plays that restart Redis: replicas before their primary, and a
 * primary never in the same batch as all of its in-sync replicas (it is moved to a batch of its
 * own right after, so one copy of its data is always up). Plays without a {@code restart_redis}
 * step, or with {@code topology: off} on it, keep inventory order and contact no host.
 */
public final class TopologyOrdering implements HostOrdering {
    private final TopologyDiscovery discovery;

    public TopologyOrdering(TopologyDiscovery discovery) {
        this.discovery = discovery;
    }

    @Override
    public List<Host> order(List<Host> hosts) {
        return discovery.discover(reachable(hosts)).order(hosts);
    }

    /**
     * The hosts whose Redis may be asked: not one of a connection fleetfix has no transport for (winrm, ...), which
     * the run skips untouched; it keeps its place, as a host whose replication is unknown.
     */
    private static List<Host> reachable(List<Host> hosts) {
        return hosts.stream()
                .filter(h -> h.connection() != Connection.UNSUPPORTED)
                .toList();
    }

    @Override
    public BatchPlan batches(Play play, List<Host> hosts) {
        if (!wantsTopology(play) || hosts.isEmpty()) {
            return BatchPlan.of(hosts, play.serial());
        }
        Topology topology = discovery.discover(reachable(hosts));
        return plan(topology, hosts, play);
    }

    /** The batches for a known topology: ordered, cut by serial, split where needed. */
    public static BatchPlan plan(Topology topology, List<Host> hosts, Play play) {
        BatchPlan cut = BatchPlan.of(topology.order(hosts), play.serial());
        List<String> notes = new ArrayList<>();
        topology.describe().forEach(line -> notes.add("topology: " + line));
        topology.notes().forEach(line -> notes.add("topology: " + line));
        List<List<Host>> batches = split(cut.batches(), topology, notes);
        return new BatchPlan(batches, notes);
    }

    /**
     * Moves each primary out of a batch that also holds every one of its in-sync replicas, into a
     * batch right after.
     */
    static List<List<Host>> split(List<List<Host>> batches, Topology topology, List<String> notes) {
        List<List<Host>> out = new ArrayList<>();
        for (List<Host> batch : batches) {
            Set<String> names = new HashSet<>(batch.stream().map(Host::name).toList());
            List<Host> stay = new ArrayList<>();
            List<Host> moved = new ArrayList<>();
            for (Host h : batch) {
                List<String> inSync = topology.inSyncReplicasOf(h.name());
                if (!inSync.isEmpty() && names.containsAll(inSync)) {
                    moved.add(h);
                    notes.add("split: " + h.name() + " moved to a batch after "
                            + String.join(", ", inSync)
                            + (inSync.size() == 1 ? ", its only in-sync replica" : ", all its in-sync replicas")
                            + " (never down together)");
                } else {
                    stay.add(h);
                }
            }
            if (stay.isEmpty()) {
                // Every host moved (primaries of each other's replicas cannot happen); keep the batch.
                out.add(batch);
                continue;
            }
            out.add(stay);
            if (!moved.isEmpty()) {
                out.add(moved);
            }
        }
        return out;
    }

    /** Whether the play restarts Redis with topology on (the default). */
    static boolean wantsTopology(Play play) {
        for (Step step : play.steps()) {
            if (step.type().equals("restart_redis")) {
                Object mode = step.args().get("topology");
                return mode == null
                        || !mode.toString().strip().toLowerCase(Locale.ROOT).equals("off");
            }
        }
        return false;
    }
}
