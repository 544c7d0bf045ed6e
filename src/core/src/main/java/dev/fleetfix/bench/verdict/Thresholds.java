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
     * minimum-effect test, {@link BatchTest}), since the drift between two moments is not in the samples. Their
     * rounds agree with each other more than with the other
     * side's: on the lab, A/A pairs seconds apart and a mildly throttled Redis got verdicts with a 5 % floor. Tests
     * over the rounds cannot see drift that is shared by the rounds of a side, so without control hosts a change
     * must pass 20 %; a THP fork penalty on an old kernel is many times that, and a halved CPU quota still passes
     * it. The 99th percentile drifts more between two moments than throughput does, and gave a false "regressed" at
     * 20 %; so from p99 up the floor is 50 %, the same number of standard deviations of that drift that 20 % is of
     * throughput's. The measurements, with their dates:
     * docs/benchmarks-and-verdicts.md#measurements-behind-the-defaults.
     */
    public static final Thresholds DEFAULT = new Thresholds(0.05, 0.20, 0.50, 0.01, 0.95);

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
