package dev.fleetfix.playbook;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * One step of a play, as written: its type ({@code thp}, {@code restart_redis}...), a display
 * name, its arguments with {@code {{ var }}} templates still in them, an optional condition and its tags.
 *
 * @param type the step type, known to the step catalog the parser was given
 * @param name what reports call the step; the type when the playbook gives none
 * @param args arguments in file order; values are String, Number, Boolean, List or Map
 * @param when a condition on host facts ({@code thp.enabled != never}), or empty
 * @param location where the step starts in the playbook
 * @param tags the step's own tags, in file order without repeats (its play's are added by {@link Play#tagsOf})
 */
public record Step(
        String type,
        String name,
        Map<String, Object> args,
        Optional<String> when,
        Location location,
        List<String> tags) {
    public Step {
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(when, "when");
        Objects.requireNonNull(location, "location");
        if (type.isBlank()) {
            throw new IllegalArgumentException("step type must not be blank");
        }
        args = Collections.unmodifiableMap(new LinkedHashMap<>(args));
        tags = List.copyOf(tags);
    }

    /** An untagged step. */
    public Step(String type, String name, Map<String, Object> args, Optional<String> when, Location location) {
        this(type, name, args, when, location, List.of());
    }

    /** The same step with other (resolved) arguments. */
    public Step withArgs(Map<String, Object> newArgs) {
        return new Step(type, name, newArgs, when, location, tags);
    }
}
