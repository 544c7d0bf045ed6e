package dev.fleetfix.bench.verdict;

import java.util.Collection;

/**
 * What a before/after comparison concludes, one meaning per word (docs/benchmarks-and-verdicts.md, {@code fleetfix
 * doc verdicts}).
 */
public enum Verdict {
    /** The rule called a change for the better: significant after correction, interval without 1, past the floor. */
    IMPROVED,
    /** The rule called a change for the worse, on the same terms as {@link #IMPROVED}. */
    REGRESSED,
    /**
     * The interval lies within the effect floor: no change was found, and one of the size that matters is ruled
     * out.
     */
    NO_CHANGE_DETECTED,
    /** Anything else; always shown with its reason. */
    INCONCLUSIVE;

    /** Whether the rule called a change. */
    public boolean called() {
        return this == IMPROVED || this == REGRESSED;
    }

    /**
     * Combines the verdicts of several figures: any regression wins, since a remediation that makes one figure
     * worse must be looked at; otherwise any improvement; otherwise no change detected only when every figure
     * says so; otherwise inconclusive (and so with no figures).
     */
    public static Verdict combine(Collection<Verdict> verdicts) {
        if (verdicts.contains(REGRESSED)) {
            return REGRESSED;
        }
        if (verdicts.contains(IMPROVED)) {
            return IMPROVED;
        }
        return !verdicts.isEmpty() && verdicts.stream().allMatch(v -> v == NO_CHANGE_DETECTED)
                ? NO_CHANGE_DETECTED
                : INCONCLUSIVE;
    }
}
