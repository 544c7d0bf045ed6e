package dev.fleetfix.bench;

import java.util.Collection;

/** What a before/after comparison concludes. */
public enum Verdict {
    IMPROVED,
    REGRESSED,
    WITHIN_NOISE;

    /**
     * Combines the verdicts of several figures: any regression wins, since a remediation that makes
     * one figure worse must be looked at; otherwise any improvement; otherwise noise.
     */
    public static Verdict combine(Collection<Verdict> verdicts) {
        if (verdicts.contains(REGRESSED)) {
            return REGRESSED;
        }
        return verdicts.contains(IMPROVED) ? IMPROVED : WITHIN_NOISE;
    }
}
