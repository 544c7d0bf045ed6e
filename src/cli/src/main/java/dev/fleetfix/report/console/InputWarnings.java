package dev.fleetfix.report.console;

import java.io.PrintWriter;
import java.util.function.Consumer;

/**
 * What an input (inventory, playbook) has that fleetfix accepts but doubts, such as a key or host
 * written twice: one line each, in Ansible's words, {@code [WARNING]: FILE:LINE:COL: ...}.
 */
public final class InputWarnings {
    private InputWarnings() {}

    /** Prints each warning it is given on {@code err}, at once. */
    public static Consumer<String> to(PrintWriter err) {
        return warning -> {
            err.println("[WARNING]: " + warning);
            err.flush();
        };
    }
}
