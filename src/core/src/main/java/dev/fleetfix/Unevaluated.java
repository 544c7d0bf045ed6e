package dev.fleetfix;

import java.util.Objects;

/**
 * A variable's value that fleetfix could not evaluate (a filter, a lookup, an undefined name such as Ansible's
 * {@code ansible_playbook_python}, a secret spliced into text): kept as written, with the error that names its
 * place. Ansible templates a variable only when something uses it, and so does fleetfix: a listing prints the value
 * as written, and a run, a step or a template that uses it refuses with {@link #problem()}, before any host is
 * touched.
 *
 * @param written the value as written (a string, or the list or mapping that holds the template)
 * @param problem why it cannot be evaluated, with file:line:column
 */
public record Unevaluated(Object written, InputException problem) {
    public Unevaluated {
        Objects.requireNonNull(problem, "problem");
    }

    /** The value as written, as {@code ansible-inventory} prints it. */
    @Override
    public String toString() {
        return String.valueOf(written);
    }
}
