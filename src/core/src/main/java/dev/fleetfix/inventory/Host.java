package dev.fleetfix.inventory;

import dev.fleetfix.InputException;
import dev.fleetfix.Secret;
import io.soabase.recordbuilder.core.RecordBuilder;
import java.nio.file.Path;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * One managed host, with its variables already merged by Ansible's precedence rules.
 *
 * @param name inventory name (what {@code --limit} matches and reports show)
 * @param address what to connect to ({@code ansible_host}, or the name)
 * @param port SSH port
 * @param user SSH login user, or empty for the control node's user
 * @param keyFile private key file, or empty to use ssh-agent and the default keys
 * @param become whether commands that need root run as root ({@link #becomeMethod()})
 * @param jump an optional jump host, {@code user@bastion:22}
 * @param knownHosts a known_hosts file for this host ({@code known_hosts_file}), instead of
 *     {@code ~/.ssh/known_hosts}
 * @param connection SSH or local
 * @param redis how to reach this host's Redis
 * @param groups the groups the host belongs to, {@code all} included
 * @param vars every variable visible to the host, merged
 * @param sentinel the Redis Sentinel this host runs, when it is in group {@code sentinel} (or
 *     {@code sentinels}): {@code sentinel_host} (default: its Redis address), {@code sentinel_port}
 *     (default 26379), {@code sentinel_password_env|file} or {@code sentinel_password}
 * @param unusable why a run cannot work on this host, when it cannot: a connection or Redis variable whose value
 *     cannot be evaluated (a template fleetfix does not support, a vaulted value without its password), or a
 *     vault-encrypted variables file of the host that was not decrypted. The fields it concerns then hold their
 *     defaults, which nothing may use: a run calls {@link #requireUsable()} on each host it contacts before it
 *     touches any. Listings and host patterns need none of it.
 * @param sealedVars a vault-encrypted variables file of this host that was not decrypted: its variables are missing
 *     from {@link #vars()}, and printing them refuses with this error, as {@code ansible-inventory --list} does
 * @param becomeMethod how commands that need root get it ({@code ansible_become_method}): sudo, or su
 * @param becomePassword the password sudo or su asks for ({@code ansible_become_password}, {@code -K}); without one,
 *     sudo runs with {@code -n} and never asks. It is sent on the command's standard input only when asked for.
 * @param writtenVars the variables whose value {@link #vars()} holds templated ({@code "{{ ... }}"} resolved), as
 *     written: what a listing prints, as {@code ansible-inventory} prints every template as written
 */
@RecordBuilder
public record Host(
        String name,
        String address,
        int port,
        Optional<String> user,
        Optional<Path> keyFile,
        boolean become,
        Optional<String> jump,
        Optional<Path> knownHosts,
        Connection connection,
        RedisEndpoint redis,
        List<String> groups,
        Map<String, Object> vars,
        Optional<RedisEndpoint> sentinel,
        Optional<InputException> unusable,
        Optional<InputException> sealedVars,
        BecomeMethod becomeMethod,
        Optional<Secret> becomePassword,
        Map<String, Object> writtenVars) {

    public static final int DEFAULT_SSH_PORT = 22;

    /**
     * A host whose every variable could be evaluated, that becomes root with sudo asking for no password, and whose
     * variables are printed as they are: what a host built outside an inventory file is (the implicit localhost, a
     * held connection's host).
     */
    public Host(
            String name,
            String address,
            int port,
            Optional<String> user,
            Optional<Path> keyFile,
            boolean become,
            Optional<String> jump,
            Optional<Path> knownHosts,
            Connection connection,
            RedisEndpoint redis,
            List<String> groups,
            Map<String, Object> vars,
            Optional<RedisEndpoint> sentinel) {
        this(
                name,
                address,
                port,
                user,
                keyFile,
                become,
                jump,
                knownHosts,
                connection,
                redis,
                groups,
                vars,
                sentinel,
                Optional.empty(),
                Optional.empty(),
                BecomeMethod.SUDO,
                Optional.empty(),
                Map.of());
    }

    public Host {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(address, "address");
        if (port < 1 || port > 65535) {
            throw new IllegalArgumentException("host " + name + ": port must be 1..65535, was " + port);
        }
        groups = List.copyOf(groups);
        // Keeps file order and null values (a bare `key:` is a variable set to null, as in Ansible).
        vars = Collections.unmodifiableMap(new LinkedHashMap<>(vars));
        Objects.requireNonNull(sentinel, "sentinel");
        Objects.requireNonNull(unusable, "unusable");
        Objects.requireNonNull(sealedVars, "sealedVars");
        Objects.requireNonNull(becomeMethod, "becomeMethod");
        Objects.requireNonNull(becomePassword, "becomePassword");
        writtenVars = Collections.unmodifiableMap(new LinkedHashMap<>(writtenVars));
    }

    /**
     * This host, when a run can work on it: every connection and Redis variable evaluated, and its Redis and
     * Sentinel passwords decrypted when they are inline {@code !vault} values. A run calls it for each host it will
     * contact before it touches any, so that what it cannot evaluate stops it with exit 2 and the variable's
     * file:line:column.
     *
     * @throws InputException naming the variable or the vaulted file, and its place
     */
    public Host requireUsable() {
        if (unusable.isPresent()) {
            throw unusable.get();
        }
        redis.auth().password().ifPresent(Secret::reveal);
        sentinel.flatMap(s -> s.auth().password()).ifPresent(Secret::reveal);
        if (become) {
            becomePassword.ifPresent(Secret::reveal);
            if (becomeMethod == BecomeMethod.SU && becomePassword.isEmpty() && !user.equals(Optional.of("root"))) {
                throw new InputException("host " + name + ": ansible_become_method is su, which asks for root's"
                        + " password: set ansible_become_password (a vaulted value, or -e) or give -K");
            }
        }
        return this;
    }

    /**
     * The variables, for a listing that prints them.
     *
     * @throws InputException when a vault-encrypted variables file of the host was not decrypted, naming it
     */
    public Map<String, Object> printableVars() {
        if (sealedVars.isPresent()) {
            throw sealedVars.get();
        }
        if (writtenVars.isEmpty()) {
            return vars;
        }
        Map<String, Object> shown = new LinkedHashMap<>(vars);
        writtenVars.forEach((key, written) -> shown.computeIfPresent(key, (k, v) -> written));
        return Collections.unmodifiableMap(shown);
    }

    /**
     * This host seen through its Sentinel: the same host, whose {@link #redis()} is the Sentinel's
     * endpoint, so a {@code RedisConnector} reaches the Sentinel. Empty when it runs none.
     */
    public Optional<Host> asSentinel() {
        return sentinel.map(s -> toBuilder().redis(s).build());
    }

    /** The implicit {@code localhost} of an empty inventory: local connection, Redis on 127.0.0.1:6379. */
    public static Host implicitLocalhost() {
        return new Host(
                "localhost",
                "127.0.0.1",
                DEFAULT_SSH_PORT,
                Optional.empty(),
                Optional.empty(),
                false,
                Optional.empty(),
                Optional.empty(),
                Connection.LOCAL,
                RedisEndpoint.defaultsFor("127.0.0.1"),
                List.of("all", "ungrouped"),
                Map.of(),
                Optional.empty());
    }

    /** "redis-3 (10.1.2.3:22)": how errors name a host. */
    public String describe() {
        if (connection == Connection.LOCAL) {
            return name + " (local)";
        }
        return name + " (" + address + ":" + port + ")";
    }

    /**
     * A builder that starts from this host, to change some fields of a host already built (defaults, SSH config,
     * instances); {@code build()} validates as the constructor does.
     */
    public HostBuilder toBuilder() {
        return HostBuilder.builder(this);
    }
}
