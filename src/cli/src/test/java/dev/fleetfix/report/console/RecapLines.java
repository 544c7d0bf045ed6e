package dev.fleetfix.report.console;

import java.util.Arrays;
import java.util.stream.Collectors;

/**
 * The recap's benchmark lines as patterns, for lab tests that cannot know which of several honest words a busy
 * machine gives. {@link RecapLinesTest} renders many seeded outcomes through the real recap and checks that every
 * line matches the pattern of its own verdict, so a change of wording fails there, in the unit tests, and not now
 * and then in a lab test whose outcome happened to take the form the pattern missed.
 */
public final class RecapLines {
    /** Any number as the recap prints it: digits with thousands commas, maybe a fraction. */
    private static final String NUMBER = "[\\d,]+(?:\\.\\d+)?";

    private static final String CHANGE = "[−+±]" + NUMBER + " %";

    /** Every verdict word, for a test that checks the line's form and not its outcome. */
    public static final String[] ANY_VERDICT = {"improved", "regressed", "no change detected", "inconclusive"};

    private RecapLines() {}

    /**
     * One host's comparison: "  lab-1 thp FORK-UNDER-LOAD: no change detected (4 vs 4 rounds, 8 vs 8 batches),
     * rps …, p99 …, p99.9 … (not decisive), max … (not decisive)", with one of {@code verdicts} ("inconclusive"
     * stands for "inconclusive: " and its reason).
     */
    public static String host(String host, String name, int rounds, String... verdicts) {
        // between rps and max: p50 and p90 when they decide, and any figure's reason in parentheses, which may hold
        // parentheses of its own
        return "\n  " + host + " " + name + " \\S+: " + words(verdicts) + " \\(" + rounds + " vs " + rounds
                + " rounds, \\d+ vs \\d+ (?:batches|windows)\\), rps " + NUMBER + " → " + NUMBER + " " + CHANGE + " \\["
                + CHANGE
                + ", " + CHANGE + "][^\\n]*, p99 " + NUMBER + " → " + NUMBER + " " + CHANGE + " [^\\n]*, p99.9 "
                + NUMBER + " → " + NUMBER + " [^\\n]*, max " + NUMBER + " → " + NUMBER + " " + CHANGE
                + " \\[[^\\n]*] \\(not decisive\\)\n";
    }

    /**
     * The fleet's line for {@code hosts} hosts, up to the opening parenthesis of its counts: "benchmark thp
     * FORK-UNDER-LOAD: inconclusive on 2 of 2 hosts, none called a change (…); too few hosts for a fleet interval (".
     */
    public static String fleet(String name, int hosts, String... verdicts) {
        String verdict = "(?:" + String.join("|", verdicts) + ")";
        return "\nbenchmark " + name + " \\S+: " + verdict + "(?: on \\d+ of " + hosts
                + " hosts|: hosts disagree: \\d+ improved, \\d+ regressed)[^\\n]*"
                + (hosts < 3 ? "; too few hosts for a fleet interval" : "") + " \\(";
    }

    private static String words(String... verdicts) {
        return Arrays.stream(verdicts)
                .map(v -> v.equals("inconclusive") ? "inconclusive: [^\\n]*?" : v)
                .collect(Collectors.joining("|", "(?:", ")"));
    }
}
