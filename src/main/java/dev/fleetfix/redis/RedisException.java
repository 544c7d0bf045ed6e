package dev.fleetfix.redis;

/** Redis could not be reached or answered with an error. The message names the host and endpoint. */
public class RedisException extends RuntimeException {
    private final String host;
    private final String detail;

    public RedisException(String host, String message, Throwable cause) {
        super("host " + host + ": redis: " + message, cause);
        this.host = host;
        this.detail = message;
    }

    /** What went wrong, without the host prefix of {@link #getMessage()}. */
    public String detail() {
        return detail;
    }

    public String host() {
        return host;
    }
}
