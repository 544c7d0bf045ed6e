package dev.fleetfix.bench;

import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.TreeMap;

/**
 * What is known of the latencies of one benchmark test, in milliseconds.
 *
 * <p>Sources differ in what they print: {@code --csv} reports a few percentiles, {@code -q} at most
 * the median, the verbose output a whole cumulative distribution, the builtin generator an
 * HdrHistogram. A percentile is answered from the reported values first, then from the
 * distribution; it is empty when neither knows it, rather than guessed.
 *
 * @param avgMillis mean latency, when reported
 * @param minMillis smallest latency, when reported
 * @param maxMillis largest latency, when reported or known from the distribution
 * @param reported percentiles printed as such (percentile -> millis), e.g. 50, 95, 99 from --csv
 * @param distribution cumulative distribution, in the order of increasing latency; empty if none
 * @param histogram the base64 compressed HdrHistogram (microseconds) behind the figures, if any
 */
public record Latency(
        OptionalDouble avgMillis,
        OptionalDouble minMillis,
        OptionalDouble maxMillis,
        Map<Double, Double> reported,
        List<LatencyPoint> distribution,
        Optional<String> histogram) {

    public static final Latency UNKNOWN = new Latency(
            OptionalDouble.empty(),
            OptionalDouble.empty(),
            OptionalDouble.empty(),
            Map.of(),
            List.of(),
            Optional.empty());

    public Latency {
        Objects.requireNonNull(avgMillis, "avgMillis");
        Objects.requireNonNull(minMillis, "minMillis");
        Objects.requireNonNull(maxMillis, "maxMillis");
        Objects.requireNonNull(histogram, "histogram");
        for (Map.Entry<Double, Double> e : reported.entrySet()) {
            if (!(e.getKey() > 0 && e.getKey() < 100)) {
                throw new IllegalArgumentException("reported percentile must be in (0, 100), was " + e.getKey());
            }
            if (!(e.getValue() >= 0)) {
                throw new IllegalArgumentException("reported p" + e.getKey() + " must be >= 0, was " + e.getValue());
            }
        }
        reported = Map.copyOf(new TreeMap<>(reported));
        distribution = distribution.stream()
                .sorted(Comparator.comparingDouble(LatencyPoint::millis).thenComparingDouble(LatencyPoint::percent))
                .toList();
        if (maxMillis.isEmpty() && !distribution.isEmpty()) {
            maxMillis =
                    OptionalDouble.of(distribution.get(distribution.size() - 1).millis());
        }
    }

    /**
     * The latency under which {@code percentile} percent of requests completed. 100 is the maximum.
     * From a cumulative distribution this is the first bucket whose cumulative share reaches the
     * percentile, which is what redis-benchmark's own summary does.
     */
    public OptionalDouble percentile(double percentile) {
        if (percentile >= 100) {
            return maxMillis;
        }
        if (percentile <= 0) {
            return minMillis;
        }
        Double exact = reported.get(percentile);
        if (exact != null) {
            return OptionalDouble.of(exact);
        }
        for (LatencyPoint point : distribution) {
            // printed percents are rounded to 2-3 decimals; compare with the same tolerance
            if (point.percent() + 1e-9 >= percentile) {
                return OptionalDouble.of(point.millis());
            }
        }
        return OptionalDouble.empty();
    }

    /** The same figures with a distribution added (used when a parser finds one after the summary). */
    public Latency withDistribution(List<LatencyPoint> points) {
        return new Latency(avgMillis, minMillis, maxMillis, reported, points, histogram);
    }
}
