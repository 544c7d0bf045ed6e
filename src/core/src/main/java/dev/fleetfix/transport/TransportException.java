package dev.fleetfix.transport;

import dev.fleetfix.inventory.Host;

/** A host could not be reached, authenticated or talked to. The message names the host. */
public class TransportException extends RuntimeException {

    /** Why the transport failed; decides whether a retry may help. */
    public enum Kind {
        /** Connection refused, no route, DNS: the host is unreachable. */
        UNREACHABLE,
        /** Connect or command timed out ({@link #sent()} tells which). */
        TIMEOUT,
        /** The host key is unknown or changed. Never retried. */
        HOST_KEY,
        /** Our key or user was refused. Never retried. */
        AUTH,
        /**
         * sudo or su refused the become password: the host answered, so it is not unreachable, and nothing ran as
         * root. Never retried.
         */
        BECOME,
        /** The connection broke while a command ran. */
        BROKEN,
        /** The host's ssh configuration asks for what fleetfix does not do (ProxyCommand). Never retried. */
        UNSUPPORTED
    }

    private final String host;
    private final Kind kind;
    private final boolean sent;

    /** A failure before any command reached the host (connecting, logging in, opening a session). */
    public TransportException(String host, Kind kind, String message, Throwable cause) {
        this(host, host, kind, message, cause, false);
    }

    /** Names the host with its address in the message ("host redis-3 (10.1.2.3:22): ..."). */
    public TransportException(Host host, Kind kind, String message, Throwable cause) {
        this(host.name(), host.describe(), kind, message, cause, false);
    }

    private TransportException(
            String host, String described, Kind kind, String message, Throwable cause, boolean sent) {
        super("host " + described + ": " + message, cause);
        this.host = host;
        this.kind = kind;
        this.sent = sent;
    }

    /**
     * A failure after the command was handed to the host: it may have run, in part or whole, and
     * must not be sent again.
     */
    public static TransportException afterSending(Host host, Kind kind, String message, Throwable cause) {
        return new TransportException(host.name(), host.describe(), kind, message, cause, true);
    }

    /** The same, for a host known by name only. */
    public static TransportException afterSending(String host, Kind kind, String message, Throwable cause) {
        return new TransportException(host, host, kind, message, cause, true);
    }

    /**
     * A failure another process met for this run (the connection holder), thrown again here with its host, kind
     * and message as they were.
     */
    public static TransportException relayed(String host, Kind kind, boolean sent, String message) {
        return new TransportException(host, kind, sent, message);
    }

    private TransportException(String host, Kind kind, boolean sent, String message) {
        super(message);
        this.host = host;
        this.kind = kind;
        this.sent = sent;
    }

    public String host() {
        return host;
    }

    public Kind kind() {
        return kind;
    }

    /**
     * Whether the command had been handed to the host when this happened. Then it may have run (a
     * timed-out command may still be running), so sending it again could do its work twice.
     */
    public boolean sent() {
        return sent;
    }

    /**
     * Whether trying again could help and cannot do harm: a failure to connect (timeout, refused,
     * broken), before anything was sent. Never keys or auth, never a command that was sent.
     */
    public boolean isTransient() {
        return !sent && (kind == Kind.TIMEOUT || kind == Kind.BROKEN || kind == Kind.UNREACHABLE);
    }
}
