package dev.fleetfix.report.manual;

/**
 * What {@code fleetfix doc verdicts} prints: the four verdict words of a benchmark comparison, one meaning each, and
 * the reasons an inconclusive one gives. docs/benchmarks-and-verdicts.md quotes this text as it is (a test holds
 * the two together), so the words are defined in one place.
 */
public final class VerdictManual {
    private VerdictManual() {}

    /** The text, plain, lines under 100 characters. */
    public static String text() {
        return TEXT;
    }

    private static final String TEXT =
            """
            Benchmark verdicts: one meaning per word, the same in the console, report.json, JUnit and HTML.

            improved, regressed
              Called by the rule: a decisive figure whose p-value, Holm-corrected over the test's figures, is
              below 0.01, whose 95 % interval excludes no change, and whose change is at least its effect
              floor (20 % between two moments without control hosts, 50 % from p99 up; 5 % with controls: N
              or in a sweep; a calibration's A/A difference when larger). Between two moments without
              control hosts the whole interval must lie beyond the floor. Any regressed figure makes the
              test regressed.
            no change detected
              Every decisive figure's interval lies within its effect floor: whatever changed is smaller
              than the size that matters. Not proof of no change at all.
            inconclusive
              Anything else, always with its reason, for example:
              - not significant after correction: the figure moved past its floor with an interval that
                excludes no change, but its p-value after Holm is not below the level;
              - interval too wide: the interval reaches past the floor, so a change that matters is not
                ruled out;
              - N rounds a side cannot reach the level: even two sides that do not overlap at all would give
                a p-value too large, with rounds as different as these; more rounds (the number is given)
                or controls: N would;
              - this machine's CPU was saturated: latencies include the load generator's own queueing;
              - this machine's own load drifted: a change that drift alone can cause is not called;
              - no control: between two moments without control hosts (as the last batch, which has no
                unchanged host left) the change passed the floor but its interval reaches back into it;
              - rounds with error replies; no figure can decide (too few windows, one round a side);
              - in a sweep, only after correction for N comparisons: rerun that point alone to confirm.

            The fleet
              Follows the hosts: regressed when some hosts regressed and none improved ("regressed on 2
              of 3 hosts, none improved"), improved likewise, no change detected when every host says so,
              inconclusive when hosts disagree or none called a change. Fleet figures (the hosts'
              geometric-mean change and its interval) need at least 3 hosts; below that the verdict says
              "too few hosts for a fleet interval" and the hosts' own verdicts are shown.

            "Within noise" is no verdict word: files of report schema version 1 wrote it for the last two.
            """;
}
