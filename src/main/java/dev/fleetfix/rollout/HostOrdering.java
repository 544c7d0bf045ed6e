package dev.fleetfix.rollout;

import dev.fleetfix.inventory.Host;
import java.util.List;

/**
 * The order in which a play's hosts go into batches, before {@code serial} cuts them. Inventory
 * order by default; this is the seam for topology-aware ordering (replicas before their primary),
 * which needs facts from the hosts and so is given to {@link RunPlanner} by the caller.
 */
@FunctionalInterface
public interface HostOrdering {
    List<Host> order(List<Host> hosts);

    static HostOrdering inventoryOrder() {
        return hosts -> hosts;
    }
}
