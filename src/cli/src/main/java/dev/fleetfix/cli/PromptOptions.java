package dev.fleetfix.cli;

import dev.fleetfix.InputException;
import dev.fleetfix.Secret;
import dev.fleetfix.transport.SecretPrompt;
import java.io.Console;
import java.util.Arrays;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import picocli.CommandLine;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParseResult;

/**
 * ansible-playbook's prompts, {@code -k/--ask-pass}, {@code -K/--ask-become-pass} and {@code
 * -J/--ask-vault-pass} ({@code @Mixin} of {@link InventoryOptions}). {@code -k} (the SSH password) and {@code -K} (the
 * become password) and {@code -J} (the vault password) each ask once, on the terminal, without echo; without a
 * terminal each is refused in one line, exit 2, before anything is read, saying what to give instead.
 */
final class PromptOptions {
    @Option(
            names = {"-k", "--ask-pass"},
            description = "Ask for the SSH login password on the terminal, for hosts whose inventory sets no"
                    + " ansible_password (refused without a terminal).")
    boolean askPass;

    @Option(
            names = {"-K", "--ask-become-pass"},
            description = "Ask once, on the terminal, for the password sudo (or su) asks for on hosts whose inventory"
                    + " sets no ansible_become_password. Refused without a terminal.")
    boolean askBecomePass;

    private Optional<Secret> becomePassword;

    @Option(
            names = {"-J", "--ask-vault-pass", "--ask-vault-password"},
            description = "Ask once, on the terminal, for the vault password (Ansible's default vault id), tried after"
                    + " --vault-id and --vault-password-file. Refused without a terminal.")
    boolean askVaultPass;

    private Optional<Secret> vaultPassword;

    /** Without a terminal, {@code -K} is refused in this one line. */
    static final String NO_TERMINAL = "-K/--ask-become-pass: there is no terminal to ask for the become password on:"
            + " set ansible_become_password in the inventory (a vaulted value) or give it with -e @FILE";

    /** Without a terminal, {@code -J} is refused in this one line. */
    static final String NO_TERMINAL_VAULT = "-J/--ask-vault-pass: there is no terminal to ask for the vault password"
            + " on: use --vault-password-file FILE (a file holding it, or a script printing it), --vault-id"
            + " LABEL@FILE, or vault_password_file in ansible.cfg";

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
            becomePassword =
                    Optional.of(ask("BECOME password: ", "-K/--ask-become-pass: no become password was given"));
        }
        return becomePassword;
    }

    /**
     * {@code -J}'s answer, asked for once, when it was given.
     *
     * @throws InputException when the terminal gave no answer
     */
    Optional<Secret> vaultPassword() {
        if (!askVaultPass) {
            return Optional.empty();
        }
        if (vaultPassword == null) {
            vaultPassword = Optional.of(ask("Vault password: ", "-J/--ask-vault-pass: no vault password was given"));
        }
        return vaultPassword;
    }

    /** One answer of the terminal, not echoed; refused when empty. */
    private static Secret ask(String prompt, String none) {
        char[] typed = terminal.readSecret(prompt);
        if (typed == null || typed.length == 0) {
            throw new InputException(none);
        }
        Secret answer = Secret.of(new String(typed));
        Arrays.fill(typed, '\0');
        return answer;
    }

    /**
     * Refuses the command line when it asked for a prompt, on the command that holds the option.
     *
     * @throws CommandLine.ParameterException with the one line of {@link #NO_TERMINAL} or {@link #NO_TERMINAL_VAULT}
     */
    static void refuseAsked(ParseResult parsed) {
        for (ParseResult level = parsed; level != null; level = level.subcommand()) {
            CommandLine cmd = level.commandSpec().commandLine();
            for (CommandLine.Model.OptionSpec option : level.matchedOptions()) {
                String name = option.longestName();
                if (name.equals(ASK_PASS)) {
                    askPassword(cmd);
                } else if (!terminal.present()) {
                    if (name.equals("--ask-become-pass")
                            && !(level.commandSpec().userObject() instanceof NoBecome)) {
                        throw new Refused(cmd, NO_TERMINAL);
                    }
                    if (name.equals("--ask-vault-password")) {
                        throw new Refused(cmd, NO_TERMINAL_VAULT);
                    }
                }
            }
        }
    }

    static final String ASK_PASS = "--ask-pass";

    /**
     * A command that reads the inventory but never becomes root on a host ({@code inventory}): the option group is
     * shared, but {@code -K} is neither asked there nor refused without a terminal.
     */
    interface NoBecome {}

    /** Where prompts are read: the process's terminal, or none; tests give their own. */
    interface Terminal {
        /** Whether there is a terminal to ask on. */
        boolean present();

        /** Reads a line without echoing it; null at the end of input. */
        char[] readSecret(String prompt);

        static Terminal system() {
            return new Terminal() {
                @Override
                public boolean present() {
                    return interactive(System.console());
                }

                @Override
                public char[] readSecret(String prompt) {
                    return System.console().readPassword("%s", prompt);
                }
            };
        }
    }

    /**
     * Whether {@code console} is a terminal: from Java 22 on, {@code System.console()} is a console even when input
     * and output are redirected, and its {@code isTerminal()} (absent before 22) tells.
     */
    static boolean interactive(Console console) {
        if (console == null) {
            return false;
        }
        try {
            return (Boolean) Console.class.getMethod("isTerminal").invoke(console);
        } catch (ReflectiveOperationException e) {
            return true; // before Java 22, a console exists only on a terminal
        }
    }

    /** The terminal prompts are read on: replaced by tests only. */
    static volatile Terminal terminal = Terminal.system();

    /**
     * The password {@code -k} asked for in this run; set before a command runs, cleared after it ({@link
     * #forget()}). A process runs one command line, but a test runs many in one JVM.
     */
    private static final AtomicReference<Secret> ASKED = new AtomicReference<>();

    /** The SSH password asked for with {@code -k}, when it was. */
    static Optional<Secret> askedPassword() {
        return Optional.ofNullable(ASKED.get());
    }

    /**
     * Asks on the terminal for a secret a run finds it needs (an encrypted key's passphrase), when there is a
     * terminal; empty without one, and nothing is ever waited for.
     */
    static Optional<SecretPrompt> terminalPrompt() {
        Terminal t = terminal;
        if (!t.present()) {
            return Optional.empty();
        }
        return Optional.of(prompt -> {
            char[] typed = t.readSecret(prompt);
            if (typed == null || typed.length == 0) {
                return Optional.empty();
            }
            String value = new String(typed);
            Arrays.fill(typed, '\0');
            return Optional.of(Secret.of(value));
        });
    }

    static void forget() {
        ASKED.set(null);
    }

    private static void askPassword(CommandLine cmd) {
        Terminal t = terminal;
        if (!t.present()) {
            throw new Refused(
                    cmd,
                    "-k/--ask-pass: there is no terminal to ask for the SSH password on; set ansible_password for"
                            + " the hosts (in a vault), or log in with keys (ssh-agent, --private-key)");
        }
        char[] typed = t.readSecret("SSH password: ");
        if (typed == null || typed.length == 0) {
            throw new Refused(cmd, "-k/--ask-pass: no SSH password was given");
        }
        String value = new String(typed);
        Arrays.fill(typed, '\0');
        ASKED.set(Secret.of(value));
    }

    /** A prompt asked for: the message is the whole answer, with no usage hint after it. */
    static final class Refused extends CommandLine.ParameterException {
        private static final long serialVersionUID = 1L;

        Refused(CommandLine cmd, String message) {
            super(cmd, message);
        }
    }
}
