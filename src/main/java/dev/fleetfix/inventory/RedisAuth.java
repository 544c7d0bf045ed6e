package dev.fleetfix.inventory;

import dev.fleetfix.Secret;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Where a host's Redis password comes from. At most one source is set; the password itself is
 * read only when a connection is made, so it never sits in a model that might be printed.
 */
public record RedisAuth(Optional<String> passwordEnv, Optional<Path> passwordFile, Optional<Secret> password) {
    public static final RedisAuth NONE = new RedisAuth(Optional.empty(), Optional.empty(), Optional.empty());

    public RedisAuth {
        int sources =
                (passwordEnv.isPresent() ? 1 : 0) + (passwordFile.isPresent() ? 1 : 0) + (password.isPresent() ? 1 : 0);
        if (sources > 1) {
            throw new IllegalArgumentException(
                    "redis password: set only one of redis_password_env, redis_password_file, redis_password");
        }
    }

    public boolean isSet() {
        return passwordEnv.isPresent() || passwordFile.isPresent() || password.isPresent();
    }
}
