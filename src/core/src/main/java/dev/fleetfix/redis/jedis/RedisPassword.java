package dev.fleetfix.redis.jedis;

import dev.fleetfix.KnownSecrets;
import dev.fleetfix.inventory.Host;
import dev.fleetfix.inventory.RedisAuth;
import dev.fleetfix.redis.RedisException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.Optional;
import java.util.function.Function;

/**
 * Resolves a host's Redis password at connect time, so it lives only as long as the connection setup; one read from
 * an env var or a file is made known to {@link KnownSecrets} before it is sent.
 */
final class RedisPassword {
    private RedisPassword() {}

    /**
     * The password, or empty when the host sets none.
     *
     * @throws RedisException when the env var is unset or the file unreadable; the message names the
     *     source, never the value
     */
    static Optional<String> resolve(Host host, Function<String, String> env) {
        RedisAuth auth = host.redis().auth();
        String where = host.redis().address() + ":" + host.redis().port();
        if (auth.passwordEnv().isPresent()) {
            String name = auth.passwordEnv().get();
            String value = env.apply(name);
            if (value == null || value.isEmpty()) {
                throw new RedisException(
                        host.name(), where + ": redis_password_env " + name + " is not set in the environment", null);
            }
            KnownSecrets.register(value);
            return Optional.of(value);
        }
        if (auth.passwordFile().isPresent()) {
            try {
                String text = Files.readString(auth.passwordFile().get(), StandardCharsets.UTF_8)
                        .strip();
                KnownSecrets.register(text);
                return Optional.of(text);
            } catch (IOException e) {
                throw new RedisException(
                        host.name(),
                        where + ": cannot read redis_password_file "
                                + auth.passwordFile().get() + ": "
                                + e.getClass().getSimpleName(),
                        e);
            }
        }
        return auth.password().map(secret -> secret.reveal());
    }
}
