package dev.fleetfix.transport;

import dev.fleetfix.Secret;
import dev.fleetfix.inventory.BecomeMethod;
import dev.fleetfix.inventory.Host;
import java.io.OutputStream;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * How a command that asks for root becomes root on a host. Without a become password, {@code sudo -n}: sudo never
 * asks, and fails when it would. With one, {@code sudo -S -p PROMPT} or {@code su root -c}, and the command first
 * prints a marker on its standard error once it runs as root: the password is written on the command's standard
 * input only when sudo or su asks for it, and the command's own input only after the marker ({@link BecomeAnswer}).
 * The password is never in the command line, the environment or a file, so neither {@code ps} nor a trace shows it.
 */
public final class Become {
    private static final SecureRandom RANDOM = new SecureRandom();

    private final BecomeMethod method;
    private final Optional<Secret> password;
    private final String prompt;
    private final String started;
    private final String sudo;
    private final String su;

    private Become(BecomeMethod method, Optional<Secret> password, String sudo, String su) {
        this.method = Objects.requireNonNull(method, "method");
        this.password = Objects.requireNonNull(password, "password");
        byte[] bytes = new byte[8];
        RANDOM.nextBytes(bytes);
        String nonce = HexFormat.of().formatHex(bytes);
        this.prompt = "[fleetfix-become-" + nonce + "]";
        this.started = "fleetfix-became-" + nonce;
        this.sudo = Objects.requireNonNull(sudo, "sudo");
        this.su = Objects.requireNonNull(su, "su");
    }

    /** The host's way to root, with markers of its own, which no output of an earlier command can have shown. */
    public static Become of(Host host) {
        return of(host, "sudo", "su");
    }

    /** For tests: programs that stand in for sudo and su, taking their arguments. */
    public static Become of(Host host, String sudo, String su) {
        return new Become(host.becomeMethod(), host.becomePassword(), sudo, su);
    }

    /** Whether the password is answered on the command's input, through {@link #answer}. */
    public boolean answers() {
        return password.isPresent() || method == BecomeMethod.SU;
    }

    /**
     * The argv of {@code script}, run by {@code sh -c} as root with a {@link KillAfter} deadline, since the caller could
     * not kill root's processes itself.
     */
    public List<String> argv(Duration timeout, String script) {
        List<String> command = new ArrayList<>(KillAfter.argv(timeout));
        command.addAll(List.of("sh", "-c", script));
        return argv(command);
    }

    /** {@link #argv(Duration, String)} as one line for a login shell (SSH), each word quoted. */
    public String line(Duration timeout, String script) {
        return join(argv(timeout, script));
    }

    /**
     * The argv of {@code command} (a program and its arguments) run as root.
     *
     * <ul>
     *   <li>{@code sudo -n COMMAND...} without a password;
     *   <li>{@code sudo -S -p PROMPT sh -c 'printf MARKER >&2; exec "$@"' sh COMMAND...} with one;
     *   <li>{@code su root -c 'printf MARKER >&2; exec COMMAND...'}, the command quoted for root's shell.
     * </ul>
     */
    List<String> argv(List<String> command) {
        String announce = "printf '%s\\n' " + started + " >&2; exec ";
        List<String> argv = new ArrayList<>();
        if (method == BecomeMethod.SU) {
            argv.addAll(List.of(su, "root", "-c", announce + join(command)));
            return argv;
        }
        if (password.isEmpty()) {
            argv.addAll(List.of(sudo, "-n"));
        } else {
            argv.addAll(List.of(sudo, "-S", "-p", prompt, "sh", "-c", announce + "\"$@\"", "sh"));
        }
        argv.addAll(command);
        return argv;
    }

    private static String join(List<String> words) {
        return words.stream().map(ShellQuote::quote).collect(Collectors.joining(" "));
    }

    /**
     * What answers sudo or su on {@code stdin}, the input of a command started with {@link #argv}; for a command that
     * was not {@code raised} to root, or one whose sudo never asks ({@code -n}), one that lets its streams be.
     */
    public BecomeAnswer answer(boolean raised, OutputStream stdin) {
        if (!raised || !answers()) {
            return BecomeAnswer.NONE;
        }
        return new BecomeAnswer(method, password, method == BecomeMethod.SUDO ? prompt : null, started, stdin);
    }
}
