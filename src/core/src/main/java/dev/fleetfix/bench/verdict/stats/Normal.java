package dev.fleetfix.bench.verdict.stats;

import org.apache.commons.statistics.distribution.NormalDistribution;

/** The standard normal distribution's tail, which the rank test's approximation needs. */
final class Normal {
    private static final NormalDistribution STANDARD = NormalDistribution.of(0, 1);

    private Normal() {}

    /** P(Z > z) for a standard normal Z. */
    static double upperTail(double z) {
        return STANDARD.survivalProbability(z);
    }
}
