package dev.fleetfix.redis.jedis;

import dev.fleetfix.redis.RedisException;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import javax.net.ssl.SSLException;
import redis.clients.jedis.exceptions.JedisAccessControlException;
import redis.clients.jedis.exceptions.JedisDataException;

/**
 * Maps Jedis exceptions to {@link RedisException}s that say in plain words what went wrong:
 * "host lab-2: redis: 127.0.0.12:6379: connection refused".
 */
final class JedisErrors {
    private JedisErrors() {}

    static RedisException map(String host, String endpoint, Duration timeout, RuntimeException e) {
        return new RedisException(host, endpoint + ": " + describe(e, timeout), e);
    }

    static String describe(Throwable e, Duration timeout) {
        for (Throwable t : causes(e)) {
            if (t instanceof ConnectException) {
                return "connection refused";
            }
            if (t instanceof SocketTimeoutException) {
                return "no answer within " + timeout.toMillis() + " ms";
            }
            if (t instanceof UnknownHostException) {
                return "unknown host " + t.getMessage();
            }
            if (t instanceof NoRouteToHostException) {
                return "no route to host";
            }
            if (t instanceof SSLException) {
                return "TLS failed: " + t.getMessage();
            }
            if (t instanceof JedisAccessControlException) {
                return "authentication failed: " + t.getMessage();
            }
            if (t instanceof JedisDataException && isAuthError(t.getMessage())) {
                return "authentication failed: " + t.getMessage();
            }
        }
        String message = rootMessage(e);
        return message.isBlank() ? e.getClass().getSimpleName() : message;
    }

    /**
     * The exception, its causes, and what they suppressed: Jedis reports a refused connection as
     * "Failed to connect to HOST:PORT." with the {@link ConnectException} suppressed, not as its cause.
     */
    private static List<Throwable> causes(Throwable e) {
        List<Throwable> all = new ArrayList<>();
        for (Throwable t = e; t != null && !all.contains(t); t = t.getCause()) {
            all.add(t);
            all.addAll(List.of(t.getSuppressed()));
        }
        return all;
    }

    private static boolean isAuthError(String message) {
        String m = message == null ? "" : message.toUpperCase(Locale.ROOT);
        return m.startsWith("NOAUTH") || m.startsWith("WRONGPASS") || m.contains("INVALID PASSWORD");
    }

    private static String rootMessage(Throwable e) {
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        String message = root.getMessage() != null ? root.getMessage() : e.getMessage();
        return message == null ? "" : message;
    }
}
