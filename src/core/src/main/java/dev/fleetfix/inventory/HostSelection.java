package dev.fleetfix.inventory;

import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The hosts a command works on, chosen once: the inventory as read, the {@code --limit} pattern and the hosts it
 * selects. Apply's journal records the first source and the limit, so that {@code --resume} chooses the same hosts
 * again.
 *
 * @param inventory the inventory the plays select from (the implicit localhost without a source)
 * @param sources the sources given with {@code -i}, in order; empty when ansible.cfg's or none were read
 * @param limit {@code --limit} as given
 * @param hosts the hosts the limit selects (all without it), in inventory order; fewer after a shard's cut
 */
public record HostSelection(Inventory inventory, List<Path> sources, Optional<String> limit, List<Host> hosts) {
    public HostSelection {
        Objects.requireNonNull(inventory, "inventory");
        sources = List.copyOf(sources);
        Objects.requireNonNull(limit, "limit");
        hosts = List.copyOf(hosts);
    }

    /**
     * The source a run journal records: the first {@code -i}. A run given several records the first only, and
     * {@code apply --resume} needs the same {@code -i} options again.
     */
    public Optional<Path> firstSource() {
        return sources.stream().findFirst();
    }

    /** The same selection, narrowed to {@code chosen} (a shard's cut of {@link #hosts()}). */
    public HostSelection narrowedTo(List<Host> chosen) {
        return new HostSelection(inventory, sources, limit, chosen);
    }
}
