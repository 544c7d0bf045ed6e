package dev.fleetfix.checks;

import java.util.Objects;

/**
 * One reason in plain words, with a stable code that JSON consumers can match on.
 *
 * @param severity whether it makes the host at risk or is advice only
 * @param code a stable identifier, e.g. {@code thp-exposed}, {@code overcommit}
 * @param text what a user reads, e.g. "vm.overcommit_memory is 0: BGSAVE may fail under memory
 *     pressure; set 1"
 */
public record Finding(Severity severity, String code, String text) {

    /** Risk findings make the verdict {@link HostVerdict#AT_RISK}; advice does not change the verdict. */
    public enum Severity {
        RISK("risk"),
        ADVICE("advice");

        private final String word;

        Severity(String word) {
            this.word = word;
        }

        public String word() {
            return word;
        }

        @Override
        public String toString() {
            return word;
        }
    }

    public Finding {
        Objects.requireNonNull(severity, "severity");
        Objects.requireNonNull(code, "code");
        Objects.requireNonNull(text, "text");
        if (!code.matches("[a-z][a-z0-9-]*")) {
            throw new IllegalArgumentException("finding code must be lower-case words with dashes, was " + code);
        }
        if (text.isBlank()) {
            throw new IllegalArgumentException("finding " + code + ": text must not be blank");
        }
    }

    public static Finding risk(String code, String text) {
        return new Finding(Severity.RISK, code, text);
    }

    public static Finding advice(String code, String text) {
        return new Finding(Severity.ADVICE, code, text);
    }

    public boolean isRisk() {
        return severity == Severity.RISK;
    }
}
