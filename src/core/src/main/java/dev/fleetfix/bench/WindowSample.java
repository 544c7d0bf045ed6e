package dev.fleetfix.bench;

/**
 * The load of one short window of a round (a tenth of the round, at most a second): the unit of
 * sample the before/after statistics work on. Latencies in milliseconds.
 *
 * @param seconds how long the window lasted
 * @param requests requests completed in it
 */
public record WindowSample(
        double seconds, long requests, double p50, double p90, double p99, double p999, double p9999, double max) {
    public WindowSample {
        if (!(seconds > 0) || Double.isInfinite(seconds)) {
            throw new IllegalArgumentException("window seconds must be > 0, was " + seconds);
        }
        if (requests < 1) {
            throw new IllegalArgumentException("a window holds at least one request, was " + requests);
        }
        for (double v : new double[] {p50, p90, p99, p999, p9999, max}) {
            if (!(v >= 0) || Double.isInfinite(v)) {
                throw new IllegalArgumentException("window latency must be a finite value >= 0, was " + v);
            }
        }
    }

    public double rps() {
        return requests / seconds;
    }
}
