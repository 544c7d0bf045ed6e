package dev.fleetfix.checks;

import java.util.Locale;
import java.util.Optional;

/** A Transparent Huge Pages mode, as found in {@code enabled} or {@code defrag}. */
public enum ThpMode {
    ALWAYS("always"),
    MADVISE("madvise"),
    NEVER("never"),
    /** defrag only */
    DEFER("defer"),
    /** defrag only */
    DEFER_MADVISE("defer+madvise"),
    /** Neither THP directory exists on the host. */
    UNSUPPORTED("unsupported");

    private final String word;

    ThpMode(String word) {
        this.word = word;
    }

    /** The word the kernel uses ("always", "defer+madvise"). */
    public String word() {
        return word;
    }

    public static Optional<ThpMode> fromWord(String word) {
        String w = word.strip().toLowerCase(Locale.ROOT);
        for (ThpMode mode : values()) {
            if (mode.word.equals(w)) {
                return Optional.of(mode);
            }
        }
        return Optional.empty();
    }

    @Override
    public String toString() {
        return word;
    }
}
