package dev.fleetfix.bench;

/**
 * One point of a cumulative latency distribution: {@code percent} of the requests took at most
 * {@code millis} milliseconds (redis-benchmark's {@code 99.13% <= 22 milliseconds}).
 */
public record LatencyPoint(double percent, double millis) {
    public LatencyPoint {
        if (!(percent >= 0 && percent <= 100)) {
            throw new IllegalArgumentException("percent must be 0..100, was " + percent);
        }
        if (!(millis >= 0) || Double.isInfinite(millis)) {
            throw new IllegalArgumentException("millis must be a finite value >= 0, was " + millis);
        }
    }
}
