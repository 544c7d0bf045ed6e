package dev.fleetfix.transport;

import dev.fleetfix.Secret;
import java.util.Optional;

/**
 * Asks the user for a secret on the terminal, as {@code ssh} asks for a key's passphrase: given by the command line
 * only when there is a terminal, so that nothing below it reads one itself, and a run without a terminal never waits
 * for an answer.
 */
@FunctionalInterface
public interface SecretPrompt {
    /**
     * The secret typed after {@code prompt}, known to every output's scrubbing; empty when nothing was typed.
     *
     * @param prompt what to ask, without a line end: {@code Enter passphrase for key ~/.ssh/id_ed25519: }
     */
    Optional<Secret> ask(String prompt);
}
