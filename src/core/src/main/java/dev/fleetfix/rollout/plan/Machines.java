package dev.fleetfix.rollout.plan;

import dev.fleetfix.inventory.Host;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Several inventory hosts on one machine (the instances of {@code redis_instances}, or hosts that
 * name it in {@code redis_instance_of}) are worked on one at a time: they share the machine's THP
 * files, boot configuration and run lock, and restarting two of them at once could take a primary
 * and its replica down together. Hosts that merely share an address are not taken for one machine
 * (tunnels and test fleets do that).
 */
public final class Machines {
    private Machines() {}

    /** The machine a host runs on: {@code redis_instance_of}, else the host itself. */
    public static String of(Host host) {
        Object machine = host.vars().get("redis_instance_of");
        return machine == null ? host.name() : String.valueOf(machine);
    }

    /**
     * Splits every batch so that no two of its hosts share a machine; the order of hosts is kept
     * and a host that waits goes to the next sub-batch. Notes say which host waited for which.
     */
    static BatchPlan split(BatchPlan plan) {
        List<List<Host>> out = new ArrayList<>();
        List<String> notes = new ArrayList<>(plan.notes());
        for (List<Host> batch : plan.batches()) {
            List<Host> rest = batch;
            while (!rest.isEmpty()) {
                Set<String> taken = new HashSet<>();
                Map<String, Host> first = new LinkedHashMap<>();
                List<Host> now = new ArrayList<>();
                List<Host> later = new ArrayList<>();
                for (Host h : rest) {
                    String machine = of(h);
                    if (taken.add(machine)) {
                        now.add(h);
                        first.put(machine, h);
                    } else {
                        later.add(h);
                        notes.add("split: " + h.name() + " after "
                                + first.get(machine).name() + " (same machine " + machine
                                + ": one instance at a time)");
                    }
                }
                out.add(now);
                rest = later;
            }
        }
        return new BatchPlan(out, notes);
    }
}
