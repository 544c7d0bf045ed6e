package dev.fleetfix.rollout.plan;

import dev.fleetfix.inventory.Host;
import dev.fleetfix.playbook.Play;
import java.util.List;

/**
 * The order in which a play's hosts go into batches, before {@code serial} cuts them. Inventory
 * order by default; this is the seam for topology-aware ordering (replicas before their primary),
 * which needs facts from the hosts and so is given to {@link RunPlanner} by the caller.
 */
@FunctionalInterface
public interface HostOrdering {
    List<Host> order(List<Host> hosts);

    /**
     * The play's batches: its hosts in {@link #order} cut by {@code serial}. An ordering that
     * knows more (which hosts must not be down together) overrides this to split batches, and
     * says why in the plan's notes.
     */
    default BatchPlan batches(Play play, List<Host> hosts) {
        return BatchPlan.of(order(hosts), play.serial());
    }

    static HostOrdering inventoryOrder() {
        return hosts -> hosts;
    }
}
