package dev.fleetfix.playbook;

import java.util.List;
import java.util.Objects;

/**
 * What {@code fleetfix doc STEP} and the {@code fleetfix-playbook(5)} man page say about a step type: a one-line
 * summary, an example as a playbook writes it, and each argument. It sits beside the step's {@link StepSignature};
 * a unit test checks that every argument of the signature has a doc and that every example parses with the
 * playbook parser, so the two cannot drift apart.
 *
 * @param summary one line: what the step does
 * @param example a whole step as playbook YAML, e.g. {@code - restart_redis: {failover: auto, timeout: 120s}}
 * @param args the arguments, in the order they are best read
 */
public record StepDoc(String summary, String example, List<Arg> args) {
    public StepDoc {
        Objects.requireNonNull(summary, "summary");
        Objects.requireNonNull(example, "example");
        args = List.copyOf(args);
    }

    public static StepDoc of(String summary, String example, Arg... args) {
        return new StepDoc(summary, example, List.of(args));
    }

    /**
     * One argument.
     *
     * @param name its key; for a step taking any key ({@link StepSignature#ANY_ARG}), a placeholder in capitals
     *     ({@code KEY})
     * @param type what its value is: {@code duration}, {@code boolean}, {@code text}, {@code auto|never|manual}...
     * @param defaultValue its value when not given, or a sentence saying what happens then
     * @param example a whole step using it, as playbook YAML
     * @param description what it does, in a sentence or two
     */
    public record Arg(String name, String type, String defaultValue, String example, String description) {
        public Arg {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(type, "type");
            Objects.requireNonNull(defaultValue, "defaultValue");
            Objects.requireNonNull(example, "example");
            Objects.requireNonNull(description, "description");
        }

        /** A placeholder for any key of a {@link StepSignature#ANY_ARG} step, not a key itself. */
        public boolean placeholder() {
            return name.chars().noneMatch(Character::isLowerCase);
        }
    }
}
