package dev.fleetfix.bench.redisbenchmark;

import dev.fleetfix.bench.BenchResult;
import dev.fleetfix.bench.Latency;
import dev.fleetfix.bench.LatencyPoint;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The verbose report: a {@code ====== SET ======} section per test with "N requests completed in
 * S seconds", the cumulative distribution ({@code 99.13% <= 22 milliseconds}), the throughput,
 * and since 6.2 a percentile table and a latency summary.
 */
final class VerboseOutputParser {
    private static final Pattern SECTION = Pattern.compile("={3,}\\s*(\\S.*?)\\s*={3,}");
    private static final Pattern KEEP_ALIVE = Pattern.compile("keep\\s*alive:\\s*\\d", Pattern.CASE_INSENSITIVE);
    private static final Pattern COMPLETED = Pattern.compile(
            "(\\d+)\\s+requests\\s+completed\\s+in\\s+([0-9][0-9 ]*(?:\\.\\s?[0-9]+)?)\\s*seconds",
            Pattern.CASE_INSENSITIVE);
    private static final Pattern POINT = Pattern.compile(
            "(\\d{1,3}(?:\\s?\\.\\d+)?)\\s*%\\s*<=\\s*(\\d+(?:\\.\\d+)?)\\s*milliseconds", Pattern.CASE_INSENSITIVE);
    private static final Pattern RPS = Pattern.compile(
            "(\\d+(?:\\.\\d+)?)\\s*r\\s*e\\s*q\\s*u\\s*e\\s*s\\s*t\\s*s\\s+per\\s+second", Pattern.CASE_INSENSITIVE);
    private static final Pattern SUMMARY = Pattern.compile(
            "latency summary \\(msec\\):\\s*\\n\\s*([a-z0-9 \\t]+)\\n\\s*([0-9. \\t]+)", Pattern.CASE_INSENSITIVE);
    private static final String BY_PERCENTILE = "latency by percentile distribution:";
    private static final String CUMULATIVE = "cumulative distribution of latencies:";

    private VerboseOutputParser() {}

    static List<BenchResult> parse(String text) {
        List<BenchResult> results = new ArrayList<>();
        Matcher header = SECTION.matcher(text);
        List<int[]> bounds = new ArrayList<>();
        List<String> names = new ArrayList<>();
        while (header.find()) {
            bounds.add(new int[] {header.start(), header.end()});
            names.add(header.group(1));
        }
        if (names.isEmpty()) {
            // a bare distribution without a section header: one unnamed test
            section("benchmark", text).ifPresent(results::add);
            return results;
        }
        for (int i = 0; i < names.size(); i++) {
            int end = i + 1 < bounds.size() ? bounds.get(i + 1)[0] : text.length();
            section(names.get(i), text.substring(bounds.get(i)[1], end)).ifPresent(results::add);
        }
        return results;
    }

    private static Optional<BenchResult> section(String name, String body) {
        String text = KEEP_ALIVE.matcher(body).replaceAll(" ");
        Double rps = null;
        Matcher r = RPS.matcher(text);
        while (r.find()) {
            rps = Double.parseDouble(r.group(1));
        }
        if (rps == null) {
            return Optional.empty();
        }
        OptionalLong requests = OptionalLong.empty();
        Matcher c = COMPLETED.matcher(text);
        if (c.find()) {
            requests = OptionalLong.of(Long.parseLong(c.group(1)));
        }
        Latency latency = summary(text).withDistribution(points(distributionText(text)));
        return Optional.of(new BenchResult(name, rps, requests, latency));
    }

    /** 6.2+ prints the percentile table and then a coarser cumulative one; the first is the finer. */
    private static String distributionText(String text) {
        String lower = text.toLowerCase(Locale.ROOT);
        int byPercentile = lower.indexOf(BY_PERCENTILE);
        if (byPercentile < 0) {
            return text;
        }
        int cumulative = lower.indexOf(CUMULATIVE, byPercentile);
        return text.substring(byPercentile, cumulative < 0 ? text.length() : cumulative);
    }

    private static List<LatencyPoint> points(String text) {
        List<LatencyPoint> points = new ArrayList<>();
        Matcher p = POINT.matcher(text);
        while (p.find()) {
            double percent = RedisBenchmarkOutput.number(p.group(1));
            if (percent <= 100) {
                points.add(new LatencyPoint(percent, Double.parseDouble(p.group(2))));
            }
        }
        return points;
    }

    /** "avg min p50 p95 p99 max" over their values, as 6.2+ prints under "latency summary (msec):". */
    private static Latency summary(String text) {
        Matcher s = SUMMARY.matcher(text);
        if (!s.find()) {
            return Latency.UNKNOWN;
        }
        String[] keys = s.group(1).strip().split("\\s+");
        String[] values = s.group(2).strip().split("\\s+");
        Map<String, Double> byKey = new HashMap<>();
        for (int i = 0; i < Math.min(keys.length, values.length); i++) {
            byKey.put(keys[i].toLowerCase(Locale.ROOT), Double.parseDouble(values[i]));
        }
        Map<Double, Double> reported = new HashMap<>();
        for (Map.Entry<String, Double> e : byKey.entrySet()) {
            if (e.getKey().matches("p\\d+(\\.\\d+)?")) {
                reported.put(Double.parseDouble(e.getKey().substring(1)), e.getValue());
            }
        }
        return new Latency(
                optional(byKey.get("avg")),
                optional(byKey.get("min")),
                optional(byKey.get("max")),
                reported,
                List.of(),
                Optional.empty());
    }

    private static OptionalDouble optional(Double value) {
        return value == null ? OptionalDouble.empty() : OptionalDouble.of(value);
    }
}
