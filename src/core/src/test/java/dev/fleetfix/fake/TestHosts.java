package dev.fleetfix.fake;

import dev.fleetfix.inventory.Connection;
import dev.fleetfix.inventory.Host;
import dev.fleetfix.inventory.RedisEndpoint;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Inventory hosts for tests, built without an inventory file. {@link #named(String)} starts from an
 * SSH host at 127.0.0.1:22 in group {@code all}, with no user, key, jump, known_hosts or variables,
 * become on, and Redis at the host's address on 6379; each setter changes one of those.
 */
public final class TestHosts {
    private TestHosts() {}

    public static Builder named(String name) {
        return new Builder(name);
    }

    /** A host run with the local transport, on this machine. */
    public static Host local(String name, boolean become) {
        return named(name).local().become(become).build();
    }

    /** A lab-like SSH host: user {@code fleetfix}, groups all and redis. */
    public static Host lab(String name, String address) {
        return lab(name, address, true);
    }

    public static Host lab(String name, String address, boolean become) {
        return named(name)
                .address(address)
                .user("fleetfix")
                .become(become)
                .groups("all", "redis")
                .build();
    }

    public static Host ssh(String name, String address, int port, String user, Path key, Path knownHosts) {
        return named(name)
                .address(address)
                .port(port)
                .user(user)
                .keyFile(key)
                .knownHosts(knownHosts)
                .build();
    }

    /** A builder holding everything {@code host} has, to change one thing. */
    public static Builder from(Host host) {
        Builder b = named(host.name()).address(host.address()).port(host.port());
        b.user = host.user();
        b.keyFile = host.keyFile();
        b.become = host.become();
        b.jump = host.jump();
        b.knownHosts = host.knownHosts();
        b.connection = host.connection();
        b.redis = Optional.of(host.redis());
        b.groups = host.groups();
        b.vars = host.vars();
        return b;
    }

    public static Host withJump(Host host, String jump) {
        return from(host).jump(jump).build();
    }

    public static Host withoutBecome(Host host) {
        return from(host).become(false).build();
    }

    /** Builds a {@link Host}; unset parts keep the defaults {@link TestHosts} names. */
    public static final class Builder {
        private final String name;
        private String address = "127.0.0.1";
        private int port = Host.DEFAULT_SSH_PORT;
        private Optional<String> user = Optional.empty();
        private Optional<Path> keyFile = Optional.empty();
        private boolean become = true;
        private Optional<String> jump = Optional.empty();
        private Optional<Path> knownHosts = Optional.empty();
        private Connection connection = Connection.SSH;
        private Optional<RedisEndpoint> redis = Optional.empty();
        private List<String> groups = List.of("all");
        private Map<String, Object> vars = Map.of();

        private Builder(String name) {
            this.name = Objects.requireNonNull(name, "name");
        }

        public Builder address(String value) {
            this.address = value;
            return this;
        }

        public Builder port(int value) {
            this.port = value;
            return this;
        }

        public Builder user(String value) {
            this.user = Optional.ofNullable(value);
            return this;
        }

        public Builder keyFile(Path value) {
            this.keyFile = Optional.ofNullable(value);
            return this;
        }

        public Builder become(boolean value) {
            this.become = value;
            return this;
        }

        public Builder jump(String value) {
            this.jump = Optional.ofNullable(value);
            return this;
        }

        public Builder knownHosts(Path value) {
            this.knownHosts = Optional.ofNullable(value);
            return this;
        }

        /** The local transport instead of SSH. */
        public Builder local() {
            this.connection = Connection.LOCAL;
            return this;
        }

        /** Redis elsewhere than {@link RedisEndpoint#defaultsFor} the host's address. */
        public Builder redis(RedisEndpoint value) {
            this.redis = Optional.of(value);
            return this;
        }

        public Builder groups(String... names) {
            this.groups = List.of(names);
            return this;
        }

        public Builder vars(Map<String, Object> value) {
            this.vars = value;
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
                    redis.orElseGet(() -> RedisEndpoint.defaultsFor(address)),
                    groups,
                    vars,
                    Optional.empty());
        }
    }
}
