package dev.fleetfix.redis;

/** Redis could not be reached or answered with an error. The message names the host and endpoint. */
public class RedisException extends RuntimeException {
    private final String host;

    public RedisException(String host, String message, Throwable cause) {
        super("host " + host + ": redis: " + message, cause);
        this.host = host;
    }

    public String host() {
        return host;
    }
}
