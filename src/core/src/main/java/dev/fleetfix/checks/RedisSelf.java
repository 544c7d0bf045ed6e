package dev.fleetfix.checks;

import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * What a Redis says of itself, for {@link ServiceDiscovery}: INFO server's {@code config_file}, {@code process_id} and
 * {@code executable} when it answered on {@code port}, else the error of the connection. Discovery falls back on the
 * process it names where root cannot map the listening socket to its process (no {@code CAP_SYS_PTRACE}, an LSM
 * policy), and a Redis that is not running is reported with the error.
 *
 * @param port the port this Redis was asked on
 * @param error why it could not be asked ("connection refused"); empty when it answered
 */
public record RedisSelf(
        int port, Optional<String> config, OptionalLong pid, Optional<String> executable, Optional<String> error) {
    public RedisSelf {
        Objects.requireNonNull(config, "config");
        Objects.requireNonNull(pid, "pid");
        Objects.requireNonNull(executable, "executable");
        Objects.requireNonNull(error, "error");
    }

    /** A Redis that could not be asked, and why. */
    public static RedisSelf unreachable(int port, String error) {
        return new RedisSelf(port, Optional.empty(), OptionalLong.empty(), Optional.empty(), Optional.of(error));
    }
}
