package dev.fleetfix.report.html;

import dev.fleetfix.bench.verdict.stats.Median;
import dev.fleetfix.report.ReportModelMapper;
import dev.fleetfix.report.model.LatencyPointReport;
import dev.fleetfix.report.model.TestResultReport;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;

/** The points plotted for benchmark results: a test's own curve, and a fleet's median curve. */
final class LatencyCurves {
    /** Where the fleet curve is sampled: dense in the tail, where THP shows. */
    static final double[] FLEET_LEVELS = {0, 25, 50, 75, 90, 95, 99, 99.5, 99.9, 99.95, 99.99, 99.995, 99.999, 100};

    private LatencyCurves() {}

    /**
     * A test's curve: its distribution when it has one (plus the minimum at 0% and the maximum),
     * else the percentiles it reported.
     */
    static List<LatencyPointReport> of(TestResultReport test) {
        List<LatencyPointReport> points = new ArrayList<>();
        if (test.minMs() != null) {
            points.add(new LatencyPointReport(0, test.minMs()));
        }
        if (!test.distribution().isEmpty()) {
            points.addAll(test.distribution());
        } else {
            for (Map.Entry<String, Double> p : ReportModelMapper.PERCENTILES.entrySet()) {
                Double ms = test.percentiles().get(p.getKey());
                if (ms != null && p.getValue() < 100) {
                    points.add(new LatencyPointReport(p.getValue(), ms));
                }
            }
        }
        Double max = test.percentiles().get("max");
        if (max != null && (points.isEmpty() || points.get(points.size() - 1).percent() < 100)) {
            points.add(new LatencyPointReport(100, max));
        }
        return points;
    }

    /** The latency at a percentile, from the distribution first, then the reported figures. */
    static OptionalDouble at(TestResultReport test, double percentile) {
        if (percentile >= 100) {
            return boxed(test.percentiles().get("max"));
        }
        if (percentile <= 0) {
            return boxed(test.minMs());
        }
        for (LatencyPointReport p : test.distribution()) {
            if (p.percent() + 1e-9 >= percentile) {
                return OptionalDouble.of(p.ms());
            }
        }
        for (Map.Entry<String, Double> p : ReportModelMapper.PERCENTILES.entrySet()) {
            if (Math.abs(p.getValue() - percentile) < 1e-9 && test.percentiles().containsKey(p.getKey())) {
                return OptionalDouble.of(test.percentiles().get(p.getKey()));
            }
        }
        return OptionalDouble.empty();
    }

    /** At each of {@link #FLEET_LEVELS}, the median over the tests that know that percentile. */
    static List<LatencyPointReport> fleetMedian(List<TestResultReport> tests) {
        List<LatencyPointReport> points = new ArrayList<>();
        for (double level : FLEET_LEVELS) {
            List<Double> values = new ArrayList<>();
            for (TestResultReport t : tests) {
                at(t, level).ifPresent(values::add);
            }
            if (!values.isEmpty()) {
                points.add(new LatencyPointReport(level, Median.of(values)));
            }
        }
        return points;
    }

    private static OptionalDouble boxed(Double v) {
        return v == null ? OptionalDouble.empty() : OptionalDouble.of(v);
    }
}
