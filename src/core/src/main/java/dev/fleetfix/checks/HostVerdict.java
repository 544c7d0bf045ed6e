package dev.fleetfix.checks;

/**
 * A host's audit result (not a benchmark comparison's, which is {@code bench.Verdict}).
 *
 * <ul>
 *   <li>{@link #OK}: no finding of severity {@link Finding.Severity#RISK}; advisory findings may be present.
 *   <li>{@link #AT_RISK}: at least one risk finding. A Redis that does not answer while the host does is a
 *       risk finding ("Redis is not answering ..."), so the verdict is at-risk, not unreachable.
 *   <li>{@link #UNREACHABLE}: the host itself could not be reached or logged into; no facts.
 * </ul>
 */
public enum HostVerdict {
    OK("ok"),
    AT_RISK("at-risk"),
    UNREACHABLE("unreachable");

    private final String word;

    HostVerdict(String word) {
        this.word = word;
    }

    /** How reports spell it: "ok", "at-risk", "unreachable". */
    public String word() {
        return word;
    }

    @Override
    public String toString() {
        return word;
    }
}
