package dev.fleetfix.cli;

import java.util.Arrays;
import java.util.Iterator;
import java.util.Locale;

/**
 * The words an enum option is written with on the command line ({@code thp-always}, {@code json}), for its
 * {@code completionCandidates}: picocli would otherwise complete the Java names ({@code THP_ALWAYS}), which the
 * help and the README never show. A subclass names its enum and has a no-argument constructor.
 */
public abstract class EnumWords<E extends Enum<E>> implements Iterable<String> {
    private final Class<E> type;

    protected EnumWords(Class<E> type) {
        this.type = type;
    }

    /** {@code THP_ALWAYS} as typed: {@code thp-always}. */
    static String word(Enum<?> value) {
        return value.name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    @Override
    public Iterator<String> iterator() {
        return Arrays.stream(type.getEnumConstants()).map(EnumWords::word).iterator();
    }
}
