package dev.fleetfix.transport;

import dev.fleetfix.inventory.Host;

/** A host could not be reached, authenticated or talked to. The message names the host. */
public class TransportException extends RuntimeException {

    /** Why the transport failed; decides whether a retry may help. */
    public enum Kind {
        /** Connection refused, no route, DNS: the host is unreachable. */
        UNREACHABLE,
        /** Connect or command timed out. */
        TIMEOUT,
        /** The host key is unknown or changed. Never retried. */
        HOST_KEY,
        /** Our key or user was refused. Never retried. */
        AUTH,
        /** The connection broke while a command ran. */
        BROKEN
    }

    private final String host;
    private final Kind kind;

    public TransportException(String host, Kind kind, String message, Throwable cause) {
        this(host, host, kind, message, cause);
    }

    /** Names the host with its address in the message ("host redis-3 (10.1.2.3:22): ..."). */
    public TransportException(Host host, Kind kind, String message, Throwable cause) {
        this(host.name(), host.describe(), kind, message, cause);
    }

    private TransportException(String host, String described, Kind kind, String message, Throwable cause) {
        super("host " + described + ": " + message, cause);
        this.host = host;
        this.kind = kind;
    }

    public String host() {
        return host;
    }

    public Kind kind() {
        return kind;
    }

    /** Whether trying again could help: timeouts and broken connections, not keys or auth. */
    public boolean isTransient() {
        return kind == Kind.TIMEOUT || kind == Kind.BROKEN || kind == Kind.UNREACHABLE;
    }
}
