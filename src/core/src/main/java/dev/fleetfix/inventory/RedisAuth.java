package dev.fleetfix.inventory;

import dev.fleetfix.Secret;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Who fleetfix is to a host's Redis: an ACL user ({@code redis_user}, Redis 6+; the {@code default}
 * user when unset) and where its password comes from. At most one password source is set; the
 * password itself is read only when a connection is made, so it never sits in a model that might be
 * printed.
 */
public record RedisAuth(
        Optional<String> passwordEnv, Optional<Path> passwordFile, Optional<Secret> password, Optional<String> user) {
    public static final RedisAuth NONE =
            new RedisAuth(Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty());

    /** A password source and the default user. */
    public RedisAuth(Optional<String> passwordEnv, Optional<Path> passwordFile, Optional<Secret> password) {
        this(passwordEnv, passwordFile, password, Optional.empty());
    }

    public RedisAuth {
        if (user.isPresent() && (user.get().isBlank() || user.get().chars().anyMatch(c -> c <= ' '))) {
            throw new IllegalArgumentException("redis user: must be a word without spaces, was '" + user.get() + "'");
        }
        int sources =
                (passwordEnv.isPresent() ? 1 : 0) + (passwordFile.isPresent() ? 1 : 0) + (password.isPresent() ? 1 : 0);
        if (sources > 1) {
            throw new IllegalArgumentException(
                    "redis password: set only one of redis_password_env, redis_password_file, redis_password");
        }
    }

    /** The same, as ACL user {@code name}. */
    public RedisAuth withUser(Optional<String> name) {
        return new RedisAuth(passwordEnv, passwordFile, password, name);
    }

    /** The ACL user fleetfix logs in as: {@code redis_user}, else Redis's {@code default}. */
    public String userName() {
        return user.orElse("default");
    }

    public boolean isSet() {
        return passwordEnv.isPresent() || passwordFile.isPresent() || password.isPresent();
    }
}
