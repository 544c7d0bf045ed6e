package dev.fleetfix.cli;

import java.util.Map;
import java.util.Optional;
import picocli.CommandLine;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParseResult;

/**
 * ansible-playbook's prompts, {@code -k/--ask-pass}, {@code -K/--ask-become-pass} and {@code
 * -J/--ask-vault-pass} ({@code @Mixin} of {@link InventoryOptions}): fleetfix asks for nothing yet, so each is
 * recognised and refused in one line that says what fleetfix does instead, exit 2, before anything is read. An
 * unknown option would have had only picocli's "Unknown option" and its nearest guess.
 */
final class PromptOptions {
    @Option(
            names = {"-k", "--ask-pass"},
            description = "Refused: fleetfix logs in with SSH keys only and asks for no password.")
    boolean askPass;

    @Option(
            names = {"-K", "--ask-become-pass"},
            description = "Refused: fleetfix runs sudo -n and asks for no become password.")
    boolean askBecomePass;

    @Option(
            names = {"-J", "--ask-vault-pass", "--ask-vault-password"},
            description = "Refused: fleetfix does not prompt; give --vault-password-file FILE or --vault-id.")
    boolean askVaultPass;

    /** What each prompt's refusal says, by the option's longest name. */
    static final Map<String, String> INSTEAD = Map.of(
            "--ask-pass",
            "-k/--ask-pass: fleetfix does not prompt for an SSH password: it logs in with keys (ssh-agent,"
                    + " --private-key or ansible_ssh_private_key_file; --key-passphrase-env VAR for an encrypted key)",
            "--ask-become-pass",
            "-K/--ask-become-pass: fleetfix does not prompt for a become password: it runs sudo -n, so the SSH user"
                    + " needs passwordless sudo (NOPASSWD) for fleetfix's commands; ansible_become_password is not used",
            "--ask-vault-password",
            "-J/--ask-vault-pass: fleetfix does not prompt for a vault password yet: use --vault-password-file FILE"
                    + " (a file holding it, or a script printing it), --vault-id LABEL@FILE, or vault_password_file"
                    + " in ansible.cfg");

    /**
     * Refuses the command line when it asked for a prompt, on the command that holds the option.
     *
     * @throws CommandLine.ParameterException with the one line of {@link #INSTEAD}
     */
    static void refuseAsked(ParseResult parsed) {
        for (ParseResult level = parsed; level != null; level = level.subcommand()) {
            for (CommandLine.Model.OptionSpec option : level.matchedOptions()) {
                Optional<String> instead = Optional.ofNullable(INSTEAD.get(option.longestName()));
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
