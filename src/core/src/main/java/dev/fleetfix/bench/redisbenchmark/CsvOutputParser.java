package dev.fleetfix.bench.redisbenchmark;

import dev.fleetfix.bench.BenchResult;
import dev.fleetfix.bench.Latency;
import dev.fleetfix.redis.load.BenchmarkException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.OptionalLong;

/** {@code redis-benchmark --csv}: a header row since 6.2, then one quoted row per test. */
final class CsvOutputParser {
    private static final Map<String, Double> PERCENTILE_COLUMNS =
            Map.of("p50_latency_ms", 50.0, "p90_latency_ms", 90.0, "p95_latency_ms", 95.0, "p99_latency_ms", 99.0);

    private CsvOutputParser() {}

    static List<BenchResult> parse(String text) {
        List<String> columns = List.of("test", "rps");
        List<BenchResult> results = new ArrayList<>();
        for (String line : text.split("\n")) {
            if (!line.strip().startsWith("\"")) {
                continue; // progress lines, warnings, blank lines
            }
            List<String> fields = fields(line.strip());
            if (fields.size() >= 2 && fields.get(0).equalsIgnoreCase("test")) {
                columns = fields.stream().map(f -> f.toLowerCase(Locale.ROOT)).toList();
                continue;
            }
            if (fields.size() >= 2) {
                results.add(row(columns, fields));
            }
        }
        return results;
    }

    private static BenchResult row(List<String> columns, List<String> fields) {
        Map<String, Double> values = new HashMap<>();
        for (int i = 1; i < Math.min(columns.size(), fields.size()); i++) {
            try {
                values.put(columns.get(i), RedisBenchmarkOutput.number(fields.get(i)));
            } catch (NumberFormatException e) {
                throw new BenchmarkException("redis-benchmark --csv: column " + columns.get(i) + " of test "
                        + fields.get(0) + " is not a number: " + fields.get(i));
            }
        }
        Double rps = values.get("rps");
        if (rps == null) {
            throw new BenchmarkException("redis-benchmark --csv: no rps for test " + fields.get(0));
        }
        Map<Double, Double> reported = new HashMap<>();
        PERCENTILE_COLUMNS.forEach((column, percentile) -> {
            if (values.containsKey(column)) {
                reported.put(percentile, values.get(column));
            }
        });
        Latency latency = new Latency(
                optional(values.get("avg_latency_ms")),
                optional(values.get("min_latency_ms")),
                optional(values.get("max_latency_ms")),
                reported,
                List.of(),
                java.util.Optional.empty());
        return new BenchResult(fields.get(0), rps, OptionalLong.empty(), latency);
    }

    private static OptionalDouble optional(Double value) {
        return value == null ? OptionalDouble.empty() : OptionalDouble.of(value);
    }

    /** Splits one CSV line of double-quoted fields ("" inside a field is a quote). */
    static List<String> fields(String line) {
        List<String> fields = new ArrayList<>();
        StringBuilder field = new StringBuilder();
        boolean quoted = false;
        for (int i = 0; i < line.length(); i++) {
            char c = line.charAt(i);
            if (quoted) {
                if (c == '"' && i + 1 < line.length() && line.charAt(i + 1) == '"') {
                    field.append('"');
                    i++;
                } else if (c == '"') {
                    quoted = false;
                } else {
                    field.append(c);
                }
            } else if (c == '"') {
                quoted = true;
            } else if (c == ',') {
                fields.add(field.toString().strip());
                field.setLength(0);
            } else if (!Character.isWhitespace(c)) {
                field.append(c);
            }
        }
        fields.add(field.toString().strip());
        return fields;
    }
}
