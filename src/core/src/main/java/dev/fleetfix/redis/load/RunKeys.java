package dev.fleetfix.redis.load;

import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.random.RandomGenerator;

/**
 * The key prefix of one benchmark run: the user's prefix, then a part of its own
 * ({@code fleetfix:bench:r3f9a1c07:}). Cleanup deletes this prefix only, so a benchmark deletes the
 * keys it wrote and nothing else, even when forced to run under a prefix that already held keys, or
 * when an application writes under the same prefix meanwhile.
 */
public final class RunKeys {
    private static final RandomGenerator RANDOM = new SecureRandom();

    /**
     * The part {@link #under} adds, as a SCAN glob: keys of any earlier run under the same prefix. A run whose
     * cleanup stopped half-way (its connection dropped) leaves such keys; the next one deletes them first.
     */
    public static final String EARLIER_RUN_GLOB = "r" + "[0-9a-f]".repeat(8) + ":";

    private RunKeys() {}

    /** A new prefix for one run under {@code prefix}. */
    public static String under(String prefix) {
        byte[] bytes = new byte[4];
        RANDOM.nextBytes(bytes);
        return prefix + "r" + HexFormat.of().formatHex(bytes) + ":";
    }
}
