package dev.fleetfix.bench.verdict;

import dev.fleetfix.bench.Metric;

/**
 * The floors and levels a before/after comparison judges by: how large a change must be to matter, with and without
 * drift between the sides, and the error rate and interval coverage of the tests.
 *
 * @param relativeNoise the effect floor where nothing drifts between the sides, 0.05 for 5 %
 * @param driftFloor the effect floor of sides measured at two moments with no control host: the
 *     drift between two moments that their own rounds cannot show
 * @param tailDriftFloor the same for the 99th percentile and above, which drift more
 * @param alpha family-wise error rate per host comparison
 * @param level coverage of the intervals shown
 */
public record Thresholds(double relativeNoise, double driftFloor, double tailDriftFloor, double alpha, double level) {

    /**
     * Before and after at two moments. A change is called only when the test finds it beyond the floor (a
     * minimum-effect test, {@link BatchTest}), since the drift between two moments is not in the samples: tests over
     * the rounds of a side cannot see drift shared by those rounds. So a floor is about three standard deviations
     * of the A/A log ratio between two moments, measured on the lab with nothing changed: 30 % for throughput, p50
     * and p90 (standard deviations 0.097, 0.090 and 0.111 over 36 quiet A/A pairs), 60 % from p99 up (p99 0.173,
     * p99.9 0.206). The floors of 2026-12-02 (20 % and 50 %) were the same rule on a busy CI run's figures (0.07
     * and 0.17); the quiet lab's drift is wider, under them 8 rounds a side called an unchanged host regressed (p90
     * +41 %), and fewer than half of the A/A pairs could be shown unchanged. A THP fork penalty on an old kernel is
     * many times these floors, and a 10 % CPU quota (rps −87 %) passes them. The measurements, with their dates:
     * docs/benchmarks-and-verdicts.md#measurements-behind-the-defaults.
     */
    public static final Thresholds DEFAULT = new Thresholds(0.05, 0.30, 0.60, 0.01, 0.95);

    /**
     * The level of "no change detected": every decisive figure's two one-sided tests that its change lies within
     * the floor ({@link BatchTest}) below it. Claiming every figure equivalent is an intersection-union test, so
     * this is its level whatever the number of figures.
     */
    public static final double EQUIVALENCE_ALPHA = 0.05;

    /** Sides measured in alternating rounds (a sweep, the THP demo): drift falls on both alike. */
    public static final Thresholds INTERLEAVED = new Thresholds(0.05, 0.05, 0.05, 0.01, 0.95);

    /** One effect floor for every figure and design. */
    public Thresholds(double relativeNoise, double alpha, double level) {
        this(relativeNoise, relativeNoise, relativeNoise, alpha, level);
    }

    public Thresholds {
        if (!(relativeNoise >= 0 && relativeNoise < 1)) {
            throw new IllegalArgumentException("relativeNoise must be in [0, 1), was " + relativeNoise);
        }
        if (!(driftFloor >= relativeNoise && driftFloor < 1)) {
            throw new IllegalArgumentException("driftFloor must be in [relativeNoise, 1), was " + driftFloor);
        }
        if (!(tailDriftFloor >= driftFloor && tailDriftFloor < 1)) {
            throw new IllegalArgumentException("tailDriftFloor must be in [driftFloor, 1), was " + tailDriftFloor);
        }
        if (!(alpha > 0 && alpha < 1)) {
            throw new IllegalArgumentException("alpha must be in (0, 1), was " + alpha);
        }
        if (!(level > 0 && level < 1)) {
            throw new IllegalArgumentException("level must be in (0, 1), was " + level);
        }
    }

    /** A figure's effect floor before any calibration raises it: by design, and for tails. */
    double floor(Metric metric, Controls controls) {
        if (controls.present()) {
            return relativeNoise;
        }
        return metric.tail() ? tailDriftFloor : driftFloor;
    }
}
