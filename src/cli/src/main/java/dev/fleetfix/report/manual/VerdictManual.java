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
              Called by the rule. Between two moments (no control hosts) each side's windows are cut into
              batches, two a round, each the mean of its windows: a decisive figure is called when the
              exact rank test finds the after batches shifted beyond its effect floor (30 %, 60 % from p99
              up; 5 % in a sweep; a calibration's A/A difference when larger), its p Holm-corrected over
              the test's figures below 0.01. With controls: N, a figure whose p is below 0.01 after Holm,
              whose 95 % interval excludes no change and whose change passes 5 %. Any regressed figure
              makes the test regressed.
            no change detected
              Every decisive figure was shown within its effect floor: both one-sided exact rank tests of
              its batches below 0.05 (with controls: N, its interval lies within the floor). Whatever
              changed is smaller than the size that matters. Not proof of no change at all.
            inconclusive
              Anything else, always with its reason, for example:
              - not significant after correction: the figure moved past its floor, but its p-value after
                Holm is not below the level;
              - interval too wide: a change past the floor is not ruled out (the tests that it lies within
                are not below 0.05);
              - N rounds a side cannot reach the level: even batches that do not overlap at all would give
                a p-value too large; more rounds (the number is given) or controls: N would;
              - this machine's CPU was saturated: latencies include the load generator's own queueing;
              - this machine's own load drifted: a change that drift alone can cause is not called;
              - rounds with error replies; no figure can decide (too few batches, one round a side);
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
