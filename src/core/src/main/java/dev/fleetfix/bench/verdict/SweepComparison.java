package dev.fleetfix.bench.verdict;

import dev.fleetfix.bench.plan.SweepPoint;
import java.util.Objects;

/**
 * Two neighbouring points of a sweep on one host, for one test: {@code from} plays the before side
 * and {@code to} the after side of the comparison machinery, so a {@code regressed} verdict reads
 * "slower at {@code to}" and an interval of the ratio reads "{@code to} / {@code from}".
 *
 * @param factor what differs between the two points
 * @param comparison the figures, their intervals and the verdict, as for before and after
 */
public record SweepComparison(
        String host,
        String name,
        String test,
        Factor factor,
        SweepPoint from,
        SweepPoint to,
        TestComparison comparison) {

    /** What a sweep comparison varies. */
    public enum Factor {
        /** a larger value size against the next smaller one, TCP_NODELAY alike */
        VALUE_SIZE,
        /** TCP_NODELAY off (Nagle's algorithm on) against on, at one value size */
        TCP_NODELAY
    }

    public SweepComparison {
        Objects.requireNonNull(host, "host");
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(test, "test");
        Objects.requireNonNull(factor, "factor");
        Objects.requireNonNull(from, "from");
        Objects.requireNonNull(to, "to");
        Objects.requireNonNull(comparison, "comparison");
    }
}
