package dev.fleetfix.report;

import dev.fleetfix.report.manual.VerdictManual;

/**
 * A benchmark verdict as every output writes it: the word ({@code improved}, {@code regressed}, {@code no change
 * detected}, {@code inconclusive}), then its reason after a colon, so that the console, JUnit and HTML say the same
 * thing in the same words. The words are defined once, in {@link VerdictManual}.
 */
public final class VerdictText {
    private VerdictText() {}

    /**
     * "inconclusive: not significant after correction; this machine's CPU was saturated"; a fleet's reason that
     * says where follows the word without a colon: "regressed on 2 of 3 hosts, none improved".
     */
    public static String of(String verdict, String reason) {
        if (reason == null || reason.isBlank()) {
            return word(verdict);
        }
        return word(verdict) + (reason.startsWith("on ") ? " " : ": ") + reason;
    }

    /** The JSON word as text: {@code no_change_detected} → "no change detected". */
    public static String word(String verdict) {
        return verdict == null ? "" : verdict.replace('_', ' ');
    }

    /** The badge colour: green improved, red regressed, amber inconclusive (look at it), grey no change detected. */
    public static String cssClass(String verdict) {
        return switch (verdict == null ? "" : verdict) {
            case "improved" -> "ok";
            case "regressed" -> "bad";
            case "inconclusive" -> "changed";
            default -> "neutral";
        };
    }

    public static boolean called(String verdict) {
        return "improved".equals(verdict) || "regressed".equals(verdict);
    }
}
