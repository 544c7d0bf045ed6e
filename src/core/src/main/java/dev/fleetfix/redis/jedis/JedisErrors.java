package dev.fleetfix.redis.jedis;

import dev.fleetfix.redis.RedisException;
import dev.fleetfix.redis.RedisException.Kind;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLHandshakeException;
import redis.clients.jedis.exceptions.JedisDataException;

/**
 * Maps Jedis exceptions to {@link RedisException}s that say in plain words what went wrong
 * ("host lab-2: redis: 127.0.0.12:6379: connection refused") and of which {@link Kind} it was:
 * whether Redis was reached at all, refused the credentials, or answered one command with an error.
 */
final class JedisErrors {
    private JedisErrors() {}

    /** A failure while connecting (and authenticating): no command of ours was sent yet. */
    static RedisException map(String host, String endpoint, Duration timeout, RuntimeException e) {
        return new RedisException(host, kind(e, false), Optional.empty(), endpoint + ": " + describe(e, timeout), e);
    }

    /** A failure of one command, named as sent ("CONFIG GET"). */
    static RedisException map(String host, String endpoint, Duration timeout, String command, RuntimeException e) {
        Kind kind = kind(e, true);
        String text = describe(e, timeout);
        String what =
                switch (kind) {
                    case UNKNOWN_COMMAND -> command + " refused, unknown command (renamed away or too old): " + text;
                    case NO_PERMISSION -> command + " refused by ACL: " + text;
                    case ERROR_REPLY -> command + ": " + text;
                    case LOST -> command + " sent, then " + text;
                    default -> text;
                };
        return new RedisException(host, kind, Optional.of(command), endpoint + ": " + what, e);
    }

    /** Which kind of failure: {@code sent} is whether a command had been sent on a live connection. */
    static Kind kind(Throwable e, boolean sent) {
        for (Throwable t : causes(e)) {
            if (t instanceof JedisDataException data) {
                return replyKind(data.getMessage());
            }
        }
        for (Throwable t : causes(e)) {
            // Jedis shakes hands on its first write: a failed handshake sent nothing, whatever command was to follow
            if (t instanceof SSLHandshakeException) {
                return Kind.UNREACHABLE;
            }
        }
        if (sent) {
            return Kind.LOST;
        }
        for (Throwable t : causes(e)) {
            if (t instanceof ConnectException) {
                return Kind.CONNECTION_REFUSED;
            }
        }
        return Kind.UNREACHABLE;
    }

    /** An error reply, by Redis's own words (they have been stable since 2.8). */
    static Kind replyKind(String message) {
        String m = message == null ? "" : message.toUpperCase(Locale.ROOT);
        if (isAuthError(m)) {
            return Kind.AUTH;
        }
        if (m.startsWith("ERR MAX NUMBER OF CLIENTS REACHED")) {
            return Kind.MAX_CLIENTS;
        }
        if (m.startsWith("NOPERM")) {
            return Kind.NO_PERMISSION;
        }
        if (m.startsWith("ERR UNKNOWN COMMAND") || m.startsWith("ERR UNKNOWN SUBCOMMAND")) {
            return Kind.UNKNOWN_COMMAND;
        }
        return Kind.ERROR_REPLY;
    }

    static String describe(Throwable e, Duration timeout) {
        for (Throwable t : causes(e)) {
            if (t instanceof JedisDataException data) {
                String message = String.valueOf(data.getMessage());
                return switch (replyKind(message)) {
                    case AUTH -> "authentication failed: " + message;
                    case MAX_CLIENTS -> "Redis refused the connection, its maxclients is reached: " + message;
                    default -> message;
                };
            }
        }
        for (Throwable t : causes(e)) {
            if (t instanceof HostileReplyException) {
                return t.getMessage();
            }
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
                return "TLS failed: " + tlsReason(t);
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

    /**
     * NOAUTH and WRONGPASS, Redis 6's "AUTH ... called without any password configured", older
     * "invalid password" and "Client sent AUTH, but no password is set". Jedis files NOPERM, an ACL
     * refusal of one command, under the same exception as these, which is not what it is.
     */
    private static boolean isAuthError(String upper) {
        return upper.startsWith("NOAUTH")
                || upper.startsWith("WRONGPASS")
                || upper.contains("INVALID PASSWORD")
                || upper.contains("NO PASSWORD IS SET")
                || upper.contains("WITHOUT ANY PASSWORD CONFIGURED");
    }

    /** The JVM's words for a refused certificate, with what they mean for the operator first. */
    private static String tlsReason(Throwable t) {
        String message = String.valueOf(t.getMessage());
        if (message.contains("PKIX path building failed")) {
            return "the server's certificate is signed by no CA this JVM trusts (give Java a trust store with its"
                    + " CA: -Djavax.net.ssl.trustStore in FLEETFIX_JAVA_OPTS)";
        }
        if (message.contains("No subject alternative") || message.contains("No name matching")) {
            return "the server's certificate does not name the address connected to (" + message + ")";
        }
        return message;
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
