package dev.fleetfix.redis.jedis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.fleetfix.Secret;
import dev.fleetfix.fake.TestHosts;
import dev.fleetfix.inventory.Host;
import dev.fleetfix.inventory.RedisAuth;
import dev.fleetfix.inventory.RedisEndpoint;
import dev.fleetfix.redis.RedisException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RedisPasswordTest {
    @TempDir
    Path dir;

    private static Host host(RedisAuth auth) {
        return TestHosts.named("lab-2")
                .address("127.0.0.12")
                .become(false)
                .redis(new RedisEndpoint("127.0.0.12", 6379, auth, false, "redis-server"))
                .build();
    }

    @Test
    void noAuthNoPassword() {
        assertThat(RedisPassword.resolve(host(RedisAuth.NONE), name -> null)).isEmpty();
    }

    @Test
    void readsTheEnvVarNamedByTheInventory() {
        RedisAuth auth = new RedisAuth(Optional.of("REDIS_PW"), Optional.empty(), Optional.empty());

        assertThat(RedisPassword.resolve(host(auth), Map.of("REDIS_PW", "s3cret")::get))
                .contains("s3cret");
    }

    @Test
    void anUnsetEnvVarIsAnErrorNamingIt() {
        RedisAuth auth = new RedisAuth(Optional.of("REDIS_PW"), Optional.empty(), Optional.empty());

        assertThatThrownBy(() -> RedisPassword.resolve(host(auth), name -> null))
                .isInstanceOf(RedisException.class)
                .hasMessage("host lab-2: redis: 127.0.0.12:6379: redis_password_env REDIS_PW is not set in the"
                        + " environment");
    }

    @Test
    void readsTheFileWithoutItsTrailingNewline() throws IOException {
        Path file = Files.writeString(dir.resolve("redis.pw"), "s3cret\n");
        RedisAuth auth = new RedisAuth(Optional.empty(), Optional.of(file), Optional.empty());

        assertThat(RedisPassword.resolve(host(auth), name -> null)).contains("s3cret");
    }

    @Test
    void aMissingFileIsAnErrorNamingItButNotItsContent() {
        Path file = dir.resolve("missing.pw");
        RedisAuth auth = new RedisAuth(Optional.empty(), Optional.of(file), Optional.empty());

        assertThatThrownBy(() -> RedisPassword.resolve(host(auth), name -> null))
                .isInstanceOf(RedisException.class)
                .hasMessageContaining("cannot read redis_password_file " + file);
    }

    @Test
    void aPlainPasswordIsRevealedOnlyToTheConnection() {
        RedisAuth auth = new RedisAuth(Optional.empty(), Optional.empty(), Optional.of(Secret.of("s3cret")));

        assertThat(RedisPassword.resolve(host(auth), name -> null)).contains("s3cret");
        assertThat(host(auth).toString()).doesNotContain("s3cret");
    }
}
