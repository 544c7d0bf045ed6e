package dev.fleetfix.rollout.journal;

import java.security.SecureRandom;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.HexFormat;
import java.util.random.RandomGenerator;

/**
 * Makes run ids: the start to the second in UTC, then 8 random hex digits
 * ({@code 20261128T013000Z-3f9a1c07}). The time makes ids sort and read as dates; the random part
 * keeps two runs started in the same second apart, in host locks, journals and backup names.
 */
public final class RunId {
    private static final DateTimeFormatter STAMP =
            DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'").withZone(ZoneOffset.UTC);
    private static final RandomGenerator RANDOM = new SecureRandom();

    private RunId() {}

    /** A new id for a run starting at {@code start}. */
    public static String next(Instant start) {
        return next(start, RANDOM);
    }

    static String next(Instant start, RandomGenerator random) {
        byte[] bytes = new byte[4];
        random.nextBytes(bytes);
        return STAMP.format(start) + "-" + HexFormat.of().formatHex(bytes);
    }
}
