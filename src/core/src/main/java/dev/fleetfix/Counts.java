package dev.fleetfix;

import java.util.Locale;

/**
 * A count and its noun, singular or plural as English has it: {@code 1 host}, {@code 2 hosts}, {@code 0 batches},
 * {@code 3 primaries}. The one way fleetfix writes "N things" for people. It sits beside {@link Durations}, below
 * every package, because the engine words some of its messages too (a run halted with "1 host left").
 */
public final class Counts {
    private Counts() {}

    /** {@code n} and {@code one}, made plural by English's regular rules when {@code n} is not 1. */
    public static String of(long n, String one) {
        return of(n, one, plural(one));
    }

    /** {@code n} and {@code one} or {@code many}: for nouns whose plural is irregular. */
    public static String of(long n, String one, String many) {
        return n + " " + (n == 1 ? one : many);
    }

    /** host → hosts, batch → batches, primary → primaries, key → keys. */
    static String plural(String one) {
        String lower = one.toLowerCase(Locale.ROOT);
        if (lower.endsWith("s") || lower.endsWith("x") || lower.endsWith("ch") || lower.endsWith("sh")) {
            return one + "es";
        }
        if (lower.length() > 1 && lower.endsWith("y") && "aeiou".indexOf(lower.charAt(lower.length() - 2)) < 0) {
            return one.substring(0, one.length() - 1) + "ies";
        }
        return one + "s";
    }
}
