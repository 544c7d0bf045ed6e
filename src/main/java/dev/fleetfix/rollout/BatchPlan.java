package dev.fleetfix.rollout;

import dev.fleetfix.inventory.Host;
import dev.fleetfix.playbook.BatchSize;
import java.util.ArrayList;
import java.util.List;

/**
 * A play's hosts split into batches by {@code serial}, with Ansible's semantics: each entry gives
 * the next batch's size (a percentage of all the play's hosts), the last entry repeats, and an
 * empty serial means one batch of every host.
 */
public record BatchPlan(List<List<Host>> batches) {
    public BatchPlan {
        batches = batches.stream().map(List::copyOf).toList();
    }

    public static BatchPlan of(List<Host> hosts, List<BatchSize> serial) {
        List<List<Host>> batches = new ArrayList<>();
        int next = 0;
        int entry = 0;
        while (next < hosts.size()) {
            int size = serial.isEmpty()
                    ? hosts.size()
                    : serial.get(Math.min(entry, serial.size() - 1)).hostsOf(hosts.size());
            int end = Math.min(hosts.size(), next + size);
            batches.add(hosts.subList(next, end));
            next = end;
            entry++;
        }
        return new BatchPlan(batches);
    }

    public int hostCount() {
        return batches.stream().mapToInt(List::size).sum();
    }
}
