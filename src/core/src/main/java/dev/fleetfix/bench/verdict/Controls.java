package dev.fleetfix.bench.verdict;

import dev.fleetfix.bench.BenchResult;
import java.util.List;

/**
 * Unchanged hosts measured beside each side of the changed one, round by round in turn.
 *
 * @param hosts their names
 * @param before their rounds at the moment of the before side
 * @param after their rounds at the moment of the after side
 */
public record Controls(List<String> hosts, List<BenchResult> before, List<BenchResult> after) {
    public static final Controls NONE = new Controls(List.of(), List.of(), List.of());

    public Controls {
        hosts = List.copyOf(hosts);
        before = List.copyOf(before);
        after = List.copyOf(after);
    }

    boolean present() {
        return !before.isEmpty() && !after.isEmpty();
    }
}
