package dev.fleetfix.checks;

import dev.fleetfix.redis.RedisServer;
import dev.fleetfix.redis.RedisVersion;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;

/**
 * A host's Redis as seen through its port, from the control node.
 *
 * @param endpoint where it was asked ({@code 127.0.0.11:6379})
 * @param error why it could not be asked ("connection refused"); empty when it answered
 * @param version the server's own version from INFO server ({@code valkey_version} on Valkey, else {@code
 *     redis_version})
 * @param role {@code master} or {@code replica} (INFO replication; old {@code slave} is read as replica)
 * @param disableThp {@code disable-thp} (CONFIG GET, Redis 6.2+); empty on older Redis or when CONFIG is
 *     not allowed
 * @param tcpBacklog {@code tcp-backlog} (CONFIG GET)
 * @param processId {@code process_id} from INFO server
 * @param authFailed Redis answered but refused fleetfix's credentials ({@code error} says how): it
 *     runs, it is not down
 * @param refused commands fleetfix needs that Redis would not run for it, each with why
 *     ("config|get (NOPERM)", "config|get (unknown command: renamed away)")
 * @param server flavour, version and commands, from INFO server; empty when it could not be read
 * @param serverFull Redis answered but refused the connection, having {@code maxclients} clients ({@code error}
 *     says so): it runs, and the address is right
 */
public record RedisFacts(
        String endpoint,
        Optional<String> error,
        Optional<String> version,
        Optional<String> role,
        Optional<Boolean> disableThp,
        OptionalInt tcpBacklog,
        OptionalLong processId,
        boolean authFailed,
        List<String> refused,
        Optional<RedisServer> server,
        boolean serverFull) {

    public RedisFacts {
        refused = List.copyOf(refused);
        if ((authFailed || serverFull) && error.isEmpty()) {
            throw new IllegalArgumentException("redis " + endpoint + ": an auth failure needs its error");
        }
        Objects.requireNonNull(endpoint, "endpoint");
        Objects.requireNonNull(error, "error");
        Objects.requireNonNull(version, "version");
        Objects.requireNonNull(role, "role");
        Objects.requireNonNull(disableThp, "disableThp");
        Objects.requireNonNull(tcpBacklog, "tcpBacklog");
        Objects.requireNonNull(processId, "processId");
        Objects.requireNonNull(server, "server");
        if (error.isPresent() && version.isPresent()) {
            throw new IllegalArgumentException("redis " + endpoint + ": an unreachable Redis has no version");
        }
    }

    /** A Redis known by its version only (taken as plain Redis). */
    public RedisFacts(
            String endpoint,
            Optional<String> error,
            Optional<String> version,
            Optional<String> role,
            Optional<Boolean> disableThp,
            OptionalInt tcpBacklog,
            OptionalLong processId) {
        this(
                endpoint,
                error,
                version,
                role,
                disableThp,
                tcpBacklog,
                processId,
                false,
                List.of(),
                version.flatMap(RedisVersion::find).map(RedisServer::redis),
                false);
    }

    public static RedisFacts unreachable(String endpoint, String reason) {
        return notRead(endpoint, reason, false, false);
    }

    /** Redis answered, but refused the connection: its {@code maxclients} is reached. */
    public static RedisFacts serverFull(String endpoint, String reason) {
        return notRead(endpoint, reason, false, true);
    }

    /** Redis answered, but refused fleetfix's credentials. */
    public static RedisFacts authFailed(String endpoint, String reason) {
        return notRead(endpoint, reason, true, false);
    }

    private static RedisFacts notRead(String endpoint, String reason, boolean authFailed, boolean full) {
        return new RedisFacts(
                endpoint,
                Optional.of(reason),
                Optional.empty(),
                Optional.empty(),
                Optional.empty(),
                OptionalInt.empty(),
                OptionalLong.empty(),
                authFailed,
                List.of(),
                Optional.empty(),
                full);
    }

    public boolean reachable() {
        return error.isEmpty();
    }

    /** "Redis 7.0", "Valkey 8.1", for findings; "Redis (unknown version)" when INFO could not be read. */
    public String shortName() {
        return server.map(v -> v.flavour().title() + " " + v.version().shortText())
                .orElse("Redis (unknown version)");
    }

    /** "Redis", "Valkey"; "Redis" when unknown. */
    public String flavourTitle() {
        return server.map(v -> v.flavour().title()).orElse("Redis");
    }

    /**
     * Whether this server can turn THP off for its own process: {@code disable-thp} exists from
     * Redis 6.2 on (and in every Valkey). Known from CONFIG GET when it answered, else from the version.
     */
    public boolean canOptOutOfThp() {
        if (disableThp.isPresent()) {
            return true;
        }
        return server.map(RedisServer::hasDisableThp).orElse(false);
    }
}
