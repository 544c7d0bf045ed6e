package dev.fleetfix.redis;

import java.util.Objects;
import java.util.Optional;

/**
 * Redis could not be reached or answered with an error. The message names the host and endpoint;
 * {@link #kind()} says which of these it was, because each calls for something else: a Redis that
 * refused one command is a Redis that runs (and holds data), not one that is down.
 */
public class RedisException extends RuntimeException {

    /** What went wrong. */
    public enum Kind {
        /** The TCP connection was refused: nothing listens on that address and port. */
        CONNECTION_REFUSED,
        /** No connection for another reason (connect timeout, no route, unknown host, TLS handshake). */
        UNREACHABLE,
        /** Connected, but the credentials were refused or could not be read (WRONGPASS, NOAUTH). */
        AUTH,
        /**
         * Connected to a Redis, which refused the connection: it has {@code maxclients} clients already ("ERR max
         * number of clients reached"). It runs; fleetfix may connect once others have left.
         */
        MAX_CLIENTS,
        /** Redis does not know the command: renamed away ({@code rename-command}), or too old for it. */
        UNKNOWN_COMMAND,
        /** The ACL user may not run the command ({@code NOPERM}). */
        NO_PERMISSION,
        /** Redis answered the command with another error (LOADING, BUSY, ERR ...). */
        ERROR_REPLY,
        /** The connection broke or timed out after a command was sent: it may have run. */
        LOST,
        /** Anything else: a node that is not in the inventory, no sentinel named. */
        OTHER
    }

    private final String host;
    private final String detail;
    private final Kind kind;
    private final Optional<String> command;

    public RedisException(String host, String message, Throwable cause) {
        this(host, Kind.OTHER, Optional.empty(), message, cause);
    }

    /**
     * @param command the command Redis refused or that was lost ("CONFIG GET"), when one was sent
     */
    public RedisException(String host, Kind kind, Optional<String> command, String message, Throwable cause) {
        super("host " + host + ": redis: " + message, cause);
        this.host = host;
        this.detail = message;
        this.kind = Objects.requireNonNull(kind, "kind");
        this.command = Objects.requireNonNull(command, "command");
    }

    /** What went wrong, without the host prefix of {@link #getMessage()}. */
    public String detail() {
        return detail;
    }

    public String host() {
        return host;
    }

    public Kind kind() {
        return kind;
    }

    /** The command this is about, as sent ("CONFIG GET"); empty for a failure to connect. */
    public Optional<String> command() {
        return command;
    }

    /** Redis runs and answered, but would not run this command: unknown to it or not permitted. */
    public boolean refused() {
        return kind == Kind.UNKNOWN_COMMAND || kind == Kind.NO_PERMISSION;
    }

    /**
     * No connection was made, so nothing was sent: connecting again could help and cannot do
     * anything twice.
     */
    public boolean beforeSending() {
        return kind == Kind.CONNECTION_REFUSED || kind == Kind.UNREACHABLE;
    }
}
