package dev.fleetfix.playbook;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * One play: a host pattern, how to split those hosts into batches, when to stop, and the steps to
 * run on every host.
 *
 * @param name what reports call the play
 * @param hosts an Ansible host pattern ({@code redis}, {@code redis:!redis-3}, {@code all})
 * @param serial batch sizes; the last one repeats (Ansible's semantics); one batch of all hosts when empty
 * @param maxFailPercentage the play halts when more than this share of a batch fails (0..100; default 0:
 *     any failed host halts the rollout, the safe default for data stores)
 * @param vars play variables; they override inventory variables of the same name
 * @param window a change window ({@code Sat 01:00-05:00 Europe/Berlin}), or empty for "any time"
 * @param steps the steps, in order
 * @param location where the play starts in the playbook
 * @param tags the play's tags, which every one of its steps has too (Ansible's inheritance)
 */
public record Play(
        String name,
        String hosts,
        List<BatchSize> serial,
        int maxFailPercentage,
        Map<String, Object> vars,
        Optional<String> window,
        List<Step> steps,
        Location location,
        List<String> tags) {

    public Play {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(hosts, "hosts");
        Objects.requireNonNull(window, "window");
        Objects.requireNonNull(location, "location");
        if (hosts.isBlank()) {
            throw new IllegalArgumentException("play '" + name + "': hosts must not be blank");
        }
        if (maxFailPercentage < 0 || maxFailPercentage > 100) {
            throw new IllegalArgumentException(
                    "play '" + name + "': max_fail_percentage must be 0..100, was " + maxFailPercentage);
        }
        serial = List.copyOf(serial);
        vars = Collections.unmodifiableMap(new LinkedHashMap<>(vars));
        steps = List.copyOf(steps);
        tags = List.copyOf(tags);
    }

    /** An untagged play. */
    public Play(
            String name,
            String hosts,
            List<BatchSize> serial,
            int maxFailPercentage,
            Map<String, Object> vars,
            Optional<String> window,
            List<Step> steps,
            Location location) {
        this(name, hosts, serial, maxFailPercentage, vars, window, steps, location, List.of());
    }

    /** A step's tags: its own and this play's, sorted, each once. */
    public List<String> tagsOf(Step step) {
        Set<String> all = new TreeSet<>(tags);
        all.addAll(step.tags());
        return List.copyOf(all);
    }

    /** The same play with only these of its steps (those that tags select). */
    public Play withSteps(List<Step> chosen) {
        return new Play(name, hosts, serial, maxFailPercentage, vars, window, chosen, location, tags);
    }
}
