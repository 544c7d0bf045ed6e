package dev.fleetfix.redis.jedis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fleetfix.redis.RedisException;
import java.net.ConnectException;
import java.net.SocketTimeoutException;
import java.time.Duration;
import javax.net.ssl.SSLHandshakeException;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.exceptions.JedisAccessControlException;
import redis.clients.jedis.exceptions.JedisConnectionException;
import redis.clients.jedis.exceptions.JedisDataException;

class JedisErrorsTest {
    private static final Duration TIMEOUT = Duration.ofSeconds(2);

    @Test
    void aRefusedConnectionSaysSoAndNamesHostAndEndpoint() {
        // Jedis 7 suppresses the ConnectException instead of making it the cause
        JedisConnectionException e = new JedisConnectionException("Failed to connect to 127.0.0.12:6379.");
        e.addSuppressed(new ConnectException("Connection refused"));

        assertThat(JedisErrors.map("lab-2", "127.0.0.12:6379", TIMEOUT, e))
                .hasMessage("host lab-2: redis: 127.0.0.12:6379: connection refused")
                .hasCause(e);
    }

    @Test
    void aFailedTlsHandshakeSentNothingAndSaysWhatToFix() {
        // Jedis shakes hands on its first command's write: the command never left
        JedisConnectionException untrusted = new JedisConnectionException(new SSLHandshakeException(
                "PKIX path building failed: sun.security.provider.certpath.SunCertPathBuilderException: unable to"
                        + " find valid certification path to requested target"));
        JedisConnectionException misnamed = new JedisConnectionException(
                new SSLHandshakeException("No subject alternative names matching IP address 127.0.0.42 found"));

        RedisException e = JedisErrors.map("tls1", "127.0.0.42:6390", TIMEOUT, "INFO", untrusted);
        assertThat(e.kind()).isEqualTo(RedisException.Kind.UNREACHABLE);
        assertThat(e.beforeSending()).isTrue();
        assertThat(e.detail())
                .isEqualTo("127.0.0.42:6390: TLS failed: the server's certificate is signed by no CA this JVM trusts"
                        + " (give Java a trust store with its CA: -Djavax.net.ssl.trustStore in FLEETFIX_JAVA_OPTS)");
        assertThat(JedisErrors.describe(misnamed, TIMEOUT))
                .isEqualTo("TLS failed: the server's certificate does not name the address connected to (No subject"
                        + " alternative names matching IP address 127.0.0.42 found)");
    }

    @Test
    void aTimeoutSaysHowLongItWaited() {
        JedisConnectionException e = new JedisConnectionException(new SocketTimeoutException("Read timed out"));

        assertThat(JedisErrors.describe(e, TIMEOUT)).isEqualTo("no answer within 2000 ms");
    }

    @Test
    void authFailuresSayAuthentication() {
        assertThat(JedisErrors.describe(
                        new JedisAccessControlException("WRONGPASS invalid username-password pair"), TIMEOUT))
                .isEqualTo("authentication failed: WRONGPASS invalid username-password pair");
        assertThat(JedisErrors.describe(new JedisDataException("NOAUTH Authentication required."), TIMEOUT))
                .isEqualTo("authentication failed: NOAUTH Authentication required.");
    }

    @Test
    void otherErrorsKeepRedisOwnWords() {
        assertThat(JedisErrors.describe(new JedisDataException("ERR unknown command 'CONFIG'"), TIMEOUT))
                .isEqualTo("ERR unknown command 'CONFIG'");
    }

    @Test
    void aRefusedCommandIsNotAnAuthFailureNorADownRedis() {
        RedisException renamed = JedisErrors.map(
                "lab-1",
                "127.0.0.11:6379",
                TIMEOUT,
                "CONFIG GET",
                new JedisDataException("ERR unknown command 'CONFIG', with args beginning with: 'GET' 'save' "));
        assertThat(renamed.kind()).isEqualTo(RedisException.Kind.UNKNOWN_COMMAND);
        assertThat(renamed.refused()).isTrue();
        assertThat(renamed.command()).contains("CONFIG GET");
        assertThat(renamed.detail()).startsWith("127.0.0.11:6379: CONFIG GET refused, unknown command");

        // Jedis files NOPERM under JedisAccessControlException, with WRONGPASS
        RedisException acl = JedisErrors.map(
                "lab-1",
                "127.0.0.11:6379",
                TIMEOUT,
                "CONFIG GET",
                new JedisAccessControlException("NOPERM User ops has no permissions to run the 'config|get' command"));
        assertThat(acl.kind()).isEqualTo(RedisException.Kind.NO_PERMISSION);
        assertThat(acl.detail()).contains("CONFIG GET refused by ACL: NOPERM").doesNotContain("authentication");
    }

    @Test
    void connectFailuresAreToldApartFromAnswers() {
        JedisConnectionException refused = new JedisConnectionException("Failed to connect to 127.0.0.12:6379.");
        refused.addSuppressed(new ConnectException("Connection refused"));
        assertThat(JedisErrors.map("lab-2", "127.0.0.12:6379", TIMEOUT, refused).kind())
                .isEqualTo(RedisException.Kind.CONNECTION_REFUSED);
        JedisConnectionException slow = new JedisConnectionException(new SocketTimeoutException("Read timed out"));
        assertThat(JedisErrors.map("lab-2", "127.0.0.12:6379", TIMEOUT, slow).kind())
                .isEqualTo(RedisException.Kind.UNREACHABLE);
        assertThat(JedisErrors.map("lab-2", "127.0.0.12:6379", TIMEOUT, "BGSAVE", slow))
                .satisfies(e -> assertThat(e.kind()).isEqualTo(RedisException.Kind.LOST))
                .satisfies(e -> assertThat(e.beforeSending()).isFalse());
        assertThat(JedisErrors.map(
                                "lab-2",
                                "127.0.0.12:6379",
                                TIMEOUT,
                                new JedisAccessControlException("WRONGPASS invalid username-password pair"))
                        .kind())
                .isEqualTo(RedisException.Kind.AUTH);
    }
}
