package dev.fleetfix.bench.load;

import dev.fleetfix.bench.Latency;
import dev.fleetfix.bench.LatencyPoint;
import dev.fleetfix.redis.load.BenchmarkException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.zip.DataFormatException;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramIterationValue;

/** Turns an HdrHistogram of latencies in microseconds into {@link Latency}, and back. */
public final class HistogramLatency {
    private static final double[] REPORTED = {50, 90, 95, 99, 99.9, 99.99};
    private static final int TICKS_PER_HALF_DISTANCE = 5;

    private HistogramLatency() {}

    public static Latency of(Histogram micros) {
        if (micros.getTotalCount() == 0) {
            return Latency.UNKNOWN;
        }
        Map<Double, Double> reported = new java.util.HashMap<>();
        for (double p : REPORTED) {
            reported.put(p, millis(micros.getValueAtPercentile(p)));
        }
        List<LatencyPoint> points = new ArrayList<>();
        for (HistogramIterationValue v : micros.percentiles(TICKS_PER_HALF_DISTANCE)) {
            double percent = Math.min(100, v.getPercentileLevelIteratedTo());
            points.add(new LatencyPoint(percent, millis(micros.highestEquivalentValue(v.getValueIteratedTo()))));
        }
        return new Latency(
                OptionalDouble.of(micros.getMean() / 1000.0),
                OptionalDouble.of(millis(micros.getMinValue())),
                OptionalDouble.of(millis(micros.getMaxValue())),
                reported,
                points,
                Optional.of(encode(micros)));
    }

    /** Base64 of the compressed histogram: what HdrHistogram's log format stores per interval. */
    public static String encode(Histogram histogram) {
        ByteBuffer buffer = ByteBuffer.allocate(histogram.getNeededByteBufferCapacity());
        int length = histogram.encodeIntoCompressedByteBuffer(buffer);
        return Base64.getEncoder().encodeToString(java.util.Arrays.copyOf(buffer.array(), length));
    }

    public static Histogram decode(String base64) {
        try {
            return Histogram.decodeFromCompressedByteBuffer(
                    ByteBuffer.wrap(Base64.getDecoder().decode(base64)), 0);
        } catch (DataFormatException | IllegalArgumentException e) {
            throw new BenchmarkException(
                    "latency histogram is not a base64 compressed HdrHistogram: " + e.getMessage(), e);
        }
    }

    private static double millis(long micros) {
        return micros / 1000.0;
    }
}
