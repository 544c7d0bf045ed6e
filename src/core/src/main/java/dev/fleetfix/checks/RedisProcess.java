package dev.fleetfix.checks;

import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * The Redis process on the host and the huge pages it holds.
 *
 * @param pid the process id, empty when none was found (or several {@code redis-server} ran and INFO
 *     could not say which)
 * @param pidSource {@code info} (Redis's {@code process_id}) or {@code pidof}
 * @param anonHugePagesKb {@code AnonHugePages} summed from {@code /proc/PID/smaps_rollup} (or
 *     {@code smaps}), in kB; empty when it could not be read
 * @param error why it could not be read ("Permission denied": reading another user's smaps needs root)
 */
public record RedisProcess(
        OptionalLong pid, Optional<String> pidSource, OptionalLong anonHugePagesKb, Optional<String> error) {

    public static final RedisProcess NONE =
            new RedisProcess(OptionalLong.empty(), Optional.empty(), OptionalLong.empty(), Optional.empty());

    public RedisProcess {
        Objects.requireNonNull(pid, "pid");
        Objects.requireNonNull(pidSource, "pidSource");
        Objects.requireNonNull(anonHugePagesKb, "anonHugePagesKb");
        Objects.requireNonNull(error, "error");
        if (anonHugePagesKb.isPresent() && pid.isEmpty()) {
            throw new IllegalArgumentException("AnonHugePages without a pid: " + anonHugePagesKb);
        }
    }
}
