package dev.fleetfix.cli;

import dev.fleetfix.InputException;
import dev.fleetfix.Secret;
import java.io.Console;
import java.util.Map;
import java.util.Optional;
import picocli.CommandLine;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParseResult;

/**
 * ansible-playbook's prompts, {@code -k/--ask-pass}, {@code -K/--ask-become-pass} and {@code
 * -J/--ask-vault-pass} ({@code @Mixin} of {@link InventoryOptions}). {@code -K} asks once, on the terminal, without
 * echo; without a terminal it is refused, as the others are always: in one line that says what fleetfix does
 * instead, exit 2, before anything is read. An unknown option would have had only picocli's "Unknown option" and its
 * nearest guess.
 */
final class PromptOptions {
    @Option(
            names = {"-k", "--ask-pass"},
            description = "Refused: fleetfix logs in with SSH keys only and asks for no password.")
    boolean askPass;

    @Option(
            names = {"-K", "--ask-become-pass"},
            description = "Ask once, on the terminal, for the password sudo (or su) asks for on hosts whose inventory"
                    + " sets no ansible_become_password. Refused without a terminal.")
    boolean askBecomePass;

    /** Where {@code -K} asks: the process's terminal; tests give another. */
    interface Terminal {
        /** Whether there is a terminal to ask on. */
        boolean present();

        /** The answer, read without echo; empty when the terminal closed before one was given. */
        Optional<String> readHidden(String prompt);
    }

    static volatile Terminal terminal = new Terminal() {
        @Override
        public boolean present() {
            return System.console() != null;
        }

        @Override
        public Optional<String> readHidden(String prompt) {
            Console console = System.console();
            char[] answer = console == null ? null : console.readPassword("%s", prompt);
            return Optional.ofNullable(answer).map(String::new);
        }
    };

    private Optional<Secret> becomePassword;

    @Option(
            names = {"-J", "--ask-vault-pass", "--ask-vault-password"},
            description = "Refused: fleetfix does not prompt; give --vault-password-file FILE or --vault-id.")
    boolean askVaultPass;

    /** What each prompt's refusal says, by the option's longest name. */
    static final Map<String, String> INSTEAD = Map.of(
            "--ask-pass",
            "-k/--ask-pass: fleetfix does not prompt for an SSH password: it logs in with keys (ssh-agent,"
                    + " --private-key or ansible_ssh_private_key_file; --key-passphrase-env VAR for an encrypted key)",
            "--ask-vault-password",
            "-J/--ask-vault-pass: fleetfix does not prompt for a vault password yet: use --vault-password-file FILE"
                    + " (a file holding it, or a script printing it), --vault-id LABEL@FILE, or vault_password_file"
                    + " in ansible.cfg");

    /** Without a terminal, {@code -K} is refused in this one line. */
    static final String NO_TERMINAL = "-K/--ask-become-pass: there is no terminal to ask for the become password on:"
            + " set ansible_become_password in the inventory (a vaulted value) or give it with -e @FILE";

    /**
     * {@code -K}'s answer, asked for once, when it was given.
     *
     * @throws InputException when the terminal gave no answer
     */
    Optional<Secret> becomePassword() {
        if (!askBecomePass) {
            return Optional.empty();
        }
        if (becomePassword == null) {
            String answer = terminal.readHidden("BECOME password: ")
                    .orElseThrow(() -> new InputException("-K/--ask-become-pass: no become password was given"));
            becomePassword = Optional.of(Secret.of(answer));
        }
        return becomePassword;
    }

    /**
     * Refuses the command line when it asked for a prompt, on the command that holds the option.
     *
     * @throws CommandLine.ParameterException with the one line of {@link #INSTEAD}
     */
    static void refuseAsked(ParseResult parsed) {
        for (ParseResult level = parsed; level != null; level = level.subcommand()) {
            for (CommandLine.Model.OptionSpec option : level.matchedOptions()) {
                Optional<String> instead = Optional.ofNullable(INSTEAD.get(option.longestName()));
                if (option.longestName().equals("--ask-become-pass") && !terminal.present()) {
                    instead = Optional.of(NO_TERMINAL);
                }
                if (instead.isPresent()) {
                    throw new Refused(level.commandSpec().commandLine(), instead.get());
                }
            }
        }
    }

    /** A prompt asked for: the message is the whole answer, with no usage hint after it. */
    static final class Refused extends CommandLine.ParameterException {
        private static final long serialVersionUID = 1L;

        Refused(CommandLine cmd, String message) {
            super(cmd, message);
        }
    }
}
