package dev.fleetfix.inventory;

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
 * @param become whether commands that need root run through {@code sudo -n}
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
 */
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
        Optional<RedisEndpoint> sentinel) {

    public static final int DEFAULT_SSH_PORT = 22;

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

    /** A builder that starts from this host; {@link Builder#build()} validates as the constructor does. */
    public Builder toBuilder() {
        return new Builder(this);
    }

    /** Changes some fields of a host that was already built (defaults, SSH config, instances). */
    public static final class Builder {
        private String name;
        private String address;
        private int port;
        private Optional<String> user;
        private Optional<Path> keyFile;
        private boolean become;
        private Optional<String> jump;
        private Optional<Path> knownHosts;
        private Connection connection;
        private RedisEndpoint redis;
        private List<String> groups;
        private Map<String, Object> vars;
        private Optional<RedisEndpoint> sentinel;

        private Builder(Host from) {
            name = from.name;
            address = from.address;
            port = from.port;
            user = from.user;
            keyFile = from.keyFile;
            become = from.become;
            jump = from.jump;
            knownHosts = from.knownHosts;
            connection = from.connection;
            redis = from.redis;
            groups = from.groups;
            vars = from.vars;
            sentinel = from.sentinel;
        }

        public Builder name(String value) {
            name = value;
            return this;
        }

        public Builder address(String value) {
            address = value;
            return this;
        }

        public Builder port(int value) {
            port = value;
            return this;
        }

        public Builder user(Optional<String> value) {
            user = value;
            return this;
        }

        public Builder keyFile(Optional<Path> value) {
            keyFile = value;
            return this;
        }

        public Builder become(boolean value) {
            become = value;
            return this;
        }

        public Builder jump(Optional<String> value) {
            jump = value;
            return this;
        }

        public Builder knownHosts(Optional<Path> value) {
            knownHosts = value;
            return this;
        }

        public Builder redis(RedisEndpoint value) {
            redis = value;
            return this;
        }

        public Builder vars(Map<String, Object> value) {
            vars = value;
            return this;
        }

        public Builder sentinel(Optional<RedisEndpoint> value) {
            sentinel = value;
            return this;
        }

        public Host build() {
            return new Host(
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
                    sentinel);
        }
    }
}
