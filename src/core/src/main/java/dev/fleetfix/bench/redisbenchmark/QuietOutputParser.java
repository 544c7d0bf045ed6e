package dev.fleetfix.bench.redisbenchmark;

import dev.fleetfix.bench.BenchResult;
import dev.fleetfix.bench.Latency;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code redis-benchmark -q}: {@code SET: 374531.84 requests per second}, and since 6.2
 * {@code , p50=0.303 msec} after it. Copy-pasted text glues results together ("...per secondget:
 * 50403.23 requests per second"), so results are found by the phrase that ends each of them.
 */
final class QuietOutputParser {
    private static final Pattern PER_SECOND = Pattern.compile(
            "r\\s*e\\s*q\\s*u\\s*e\\s*s\\s*t\\s*s\\s+p\\s*e\\s*r\\s+s\\s*e\\s*c\\s*o\\s*n\\s*d",
            Pattern.CASE_INSENSITIVE);
    private static final Pattern P50 =
            Pattern.compile("^\\s*,\\s*p50\\s*=\\s*([0-9.]+)\\s*msec", Pattern.CASE_INSENSITIVE);
    private static final Pattern NAME_AND_RPS = Pattern.compile("^(.*):\\s*([0-9][0-9 ]*(?:\\.[0-9]+)?)\\s*$");
    private static final Pattern PROGRESS = Pattern.compile("rps=|avg_msec=");

    private QuietOutputParser() {}

    static List<BenchResult> parse(String text) {
        String settled = dropProgress(text);
        List<BenchResult> results = new ArrayList<>();
        Matcher phrase = PER_SECOND.matcher(settled);
        int from = 0;
        while (phrase.find()) {
            String chunk = settled.substring(from, phrase.start());
            chunk = takeMedian(chunk, results);
            String[] lines = chunk.split("\n");
            Matcher m = NAME_AND_RPS.matcher(lines[lines.length - 1]);
            if (m.matches() && !m.group(1).isBlank()) {
                results.add(new BenchResult(
                        m.group(1), RedisBenchmarkOutput.number(m.group(2)), OptionalLong.empty(), Latency.UNKNOWN));
            }
            from = phrase.end();
        }
        takeMedian(settled.substring(from), results);
        return results;
    }

    /** Lines with {@code rps=} are the live progress that 6.x+ redraws with carriage returns. */
    private static String dropProgress(String text) {
        StringBuilder kept = new StringBuilder();
        for (String line : text.split("\n")) {
            if (!PROGRESS.matcher(line).find()) {
                kept.append(line).append('\n');
            }
        }
        return kept.toString();
    }

    /** A leading {@code , p50=X msec} belongs to the result before it; returns the rest of the chunk. */
    private static String takeMedian(String chunk, List<BenchResult> results) {
        Matcher m = P50.matcher(chunk);
        if (!m.find() || results.isEmpty()) {
            return chunk;
        }
        BenchResult last = results.remove(results.size() - 1);
        Latency latency = new Latency(
                OptionalDouble.empty(),
                OptionalDouble.empty(),
                OptionalDouble.empty(),
                Map.of(50.0, Double.parseDouble(m.group(1))),
                List.of(),
                Optional.empty());
        results.add(new BenchResult(last.test(), last.rps(), last.requests(), latency));
        return chunk.substring(m.end());
    }
}
