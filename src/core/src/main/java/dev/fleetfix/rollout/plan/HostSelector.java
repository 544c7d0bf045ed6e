package dev.fleetfix.rollout.plan;

import dev.fleetfix.inventory.Host;
import java.util.List;

/**
 * The hosts a play's {@code hosts:} pattern selects, already narrowed by {@code --limit}, in
 * inventory order. The CLI builds it from the inventory's {@code HostPattern}.
 */
@FunctionalInterface
public interface HostSelector {
    List<Host> select(String pattern);
}
