package dev.fleetfix.checks;

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
 * @param version {@code redis_version} from INFO server
 * @param role {@code master} or {@code replica} (INFO replication; old {@code slave} is read as replica)
 * @param disableThp {@code disable-thp} (CONFIG GET, Redis 6.2+); empty on older Redis or when CONFIG is
 *     not allowed
 * @param tcpBacklog {@code tcp-backlog} (CONFIG GET)
 * @param processId {@code process_id} from INFO server
 * @param authFailed Redis answered but refused fleetfix's credentials ({@code error} says how): it
 *     runs, it is not down
 * @param refused commands fleetfix needs that Redis would not run for it, each with why
 *     ("config|get (NOPERM)", "config|get (unknown command: renamed away)")
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
        List<String> refused) {

    public RedisFacts(
            String endpoint,
            Optional<String> error,
            Optional<String> version,
            Optional<String> role,
            Optional<Boolean> disableThp,
            OptionalInt tcpBacklog,
            OptionalLong processId) {
        this(endpoint, error, version, role, disableThp, tcpBacklog, processId, false, List.of());
    }

    public RedisFacts {
        refused = List.copyOf(refused);
        if (authFailed && error.isEmpty()) {
            throw new IllegalArgumentException("redis " + endpoint + ": an auth failure needs its error");
        }
        Objects.requireNonNull(endpoint, "endpoint");
        Objects.requireNonNull(error, "error");
        Objects.requireNonNull(version, "version");
        Objects.requireNonNull(role, "role");
        Objects.requireNonNull(disableThp, "disableThp");
        Objects.requireNonNull(tcpBacklog, "tcpBacklog");
        Objects.requireNonNull(processId, "processId");
        if (error.isPresent() && version.isPresent()) {
            throw new IllegalArgumentException("redis " + endpoint + ": an unreachable Redis has no version");
        }
    }

    public static RedisFacts unreachable(String endpoint, String reason) {
        return new RedisFacts(
                endpoint,
                Optional.of(reason),
                Optional.empty(),
                Optional.empty(),
                Optional.empty(),
                OptionalInt.empty(),
                OptionalLong.empty());
    }

    /** Redis answered, but refused fleetfix's credentials. */
    public static RedisFacts authFailed(String endpoint, String reason) {
        return new RedisFacts(
                endpoint,
                Optional.of(reason),
                Optional.empty(),
                Optional.empty(),
                Optional.empty(),
                OptionalInt.empty(),
                OptionalLong.empty(),
                true,
                List.of());
    }

    public boolean reachable() {
        return error.isEmpty();
    }

    /** "7.0" of "7.0.15", for findings. */
    public Optional<String> shortVersion() {
        return version.map(v -> {
            String[] parts = v.split("\\.");
            return parts.length >= 2 ? parts[0] + "." + parts[1] : v;
        });
    }

    /**
     * Whether this Redis can turn THP off for its own process: {@code disable-thp} exists from 6.2 on.
     * Known from CONFIG GET when it answered, else from the version.
     */
    public boolean canOptOutOfThp() {
        if (disableThp.isPresent()) {
            return true;
        }
        return version.map(RedisFacts::atLeast62).orElse(false);
    }

    static boolean atLeast62(String version) {
        String[] parts = version.split("\\.");
        try {
            int major = Integer.parseInt(parts[0]);
            int minor = parts.length > 1 ? Integer.parseInt(parts[1]) : 0;
            return major > 6 || (major == 6 && minor >= 2);
        } catch (NumberFormatException e) {
            return false;
        }
    }
}
