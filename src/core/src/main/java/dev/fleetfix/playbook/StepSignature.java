package dev.fleetfix.playbook;

import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * What the parser needs to know about a step type: its argument names, which of them are shell
 * text (template values spliced into them are shell-quoted), and the argument a bare scalar fills
 * ({@code command: "systemctl daemon-reload"} fills {@code cmd}).
 */
public record StepSignature(String type, Set<String> args, Set<String> shellArgs, Optional<String> freeFormArg) {
    /** In {@link #args()}: the step takes any argument (a placeholder whose real type is not in this build). */
    public static final String ANY_ARG = "*";

    public StepSignature {
        Objects.requireNonNull(type, "type");
        args = Set.copyOf(args);
        shellArgs = Set.copyOf(shellArgs);
        Objects.requireNonNull(freeFormArg, "freeFormArg");
        if (!args.containsAll(shellArgs)) {
            throw new IllegalArgumentException("step " + type + ": shellArgs must be among args, was " + shellArgs);
        }
    }

    public boolean accepts(String arg) {
        return args.contains(arg) || args.contains(ANY_ARG);
    }

    public static StepSignature of(String type, Set<String> args) {
        return new StepSignature(type, args, Set.of(), Optional.empty());
    }
}
