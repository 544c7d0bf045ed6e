package dev.fleetfix.rollout.plan;

import dev.fleetfix.inventory.Host;
import dev.fleetfix.playbook.BatchSize;
import java.util.ArrayList;
import java.util.List;

/**
 * A play's hosts split into batches by {@code serial}, with Ansible's semantics: each entry gives
 * the next batch's size (a percentage of all the play's hosts), the last entry repeats, and an
 * empty serial means one batch of every host.
 *
 * @param batches the hosts, batch by batch
 * @param notes why the batches are what they are, beyond serial (topology: order, splits)
 */
public record BatchPlan(List<List<Host>> batches, List<String> notes) {
    public BatchPlan {
        batches = batches.stream().map(List::copyOf).toList();
        notes = List.copyOf(notes);
    }

    public BatchPlan(List<List<Host>> batches) {
        this(batches, List.of());
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

    public BatchPlan withNotes(List<String> more) {
        List<String> all = new ArrayList<>(notes);
        all.addAll(more);
        return new BatchPlan(batches, all);
    }
}
