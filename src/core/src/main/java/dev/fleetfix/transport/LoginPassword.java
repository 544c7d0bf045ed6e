package dev.fleetfix.transport;

import dev.fleetfix.Secret;
import dev.fleetfix.Unevaluated;
import dev.fleetfix.inventory.Host;
import java.util.List;
import java.util.Optional;

/**
 * The SSH login password of a host, as Ansible's ssh connection takes it: {@code ansible_password}, else {@code
 * ansible_ssh_pass}, else {@code ansible_ssh_password} (plain, vaulted or from {@code -e}), else the one asked for
 * with {@code -k}. It is a {@link Secret}: known to every output's scrubbing once revealed, and sent only inside the
 * SSH connection's encrypted authentication request, never in a command line, the environment or a file.
 *
 * @param value the password
 * @param source where it came from, as a user would name it ({@code ansible_password}, {@code -k})
 */
public record LoginPassword(Secret value, String source) {
    /** The variables Ansible's ssh connection reads the password from, in this order. */
    public static final List<String> VARIABLES =
            List.of("ansible_password", "ansible_ssh_pass", "ansible_ssh_password");

    /**
     * The host's password, if it logs in with one.
     *
     * @throws dev.fleetfix.InputException when the variable is a template fleetfix cannot evaluate, naming its place
     */
    public static Optional<LoginPassword> of(Host host, SshOptions options) {
        for (String name : VARIABLES) {
            if (!host.vars().containsKey(name) || host.vars().get(name) == null) {
                continue;
            }
            Object value = host.vars().get(name);
            if (value instanceof Unevaluated unevaluated) {
                throw unevaluated.problem();
            }
            Secret secret = value instanceof Secret s ? s : Secret.of(String.valueOf(value));
            return Optional.of(new LoginPassword(secret, name));
        }
        return options.password().map(p -> new LoginPassword(p, "-k"));
    }
}
