package dev.fleetfix.redis.load;

/**
 * The commands the builtin generator sends. Each works on its own key family under the prefix, so
 * an INCR never meets a string written by SET.
 */
public enum Operation {
    SET("str:"),
    GET("str:"),
    INCR("ctr:"),
    LPUSH("list:");

    private final String keyFamily;

    Operation(String keyFamily) {
        this.keyFamily = keyFamily;
    }

    /** The key of number {@code n} of this command's family under {@code prefix}. */
    public String key(String prefix, long n) {
        return prefix + keyFamily + n;
    }
}
