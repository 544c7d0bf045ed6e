package dev.fleetfix.bench.redisbenchmark;

import dev.fleetfix.bench.BenchResult;
import dev.fleetfix.redis.load.BenchmarkException;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Reads what redis-benchmark printed, in any of its shapes: {@code --csv} (with the latency
 * columns of Redis 6.2+, or rps only before), {@code -q} lines (with {@code p50=} since 6.2), and
 * the verbose report (the cumulative {@code <= N milliseconds} lines of Redis before 6, the
 * percentile table of 6.2+).
 *
 * <p>The parsers are tolerant on purpose: output that went through terminals, copy-paste and
 * translation arrives with lines glued together, spaces inside numbers and odd capitalisation.
 */
public final class RedisBenchmarkOutput {

    /** The shapes of redis-benchmark output. */
    public enum Format {
        CSV,
        QUIET,
        VERBOSE
    }

    private static final Pattern CSV_ROW = Pattern.compile("(?m)^\\s*\"[^\"]*\"\\s*,\\s*\"");
    private static final Pattern SECTION = Pattern.compile("={3,}\\s*\\S.*?={3,}");
    private static final Pattern CUMULATIVE = Pattern.compile("%\\s*<=");

    private RedisBenchmarkOutput() {}

    /** Guesses the format from the text itself. */
    public static Format detect(String output) {
        String text = clean(output);
        if (CSV_ROW.matcher(text).find()) {
            return Format.CSV;
        }
        if (SECTION.matcher(text).find() || CUMULATIVE.matcher(text).find()) {
            return Format.VERBOSE;
        }
        return Format.QUIET;
    }

    /** Parses output of any format; throws when it holds no result at all. */
    public static List<BenchResult> parse(String output) {
        return parse(output, detect(output));
    }

    public static List<BenchResult> parse(String output, Format format) {
        String text = clean(output);
        List<BenchResult> results =
                switch (format) {
                    case CSV -> CsvOutputParser.parse(text);
                    case QUIET -> QuietOutputParser.parse(text);
                    case VERBOSE -> VerboseOutputParser.parse(text);
                };
        if (results.isEmpty()) {
            throw new BenchmarkException(
                    "redis-benchmark output (" + format.name().toLowerCase(java.util.Locale.ROOT)
                            + ") holds no result; it began with: " + firstLine(text));
        }
        return results;
    }

    /** Carriage returns (progress lines) become line breaks; non-breaking spaces become spaces. */
    static String clean(String output) {
        return output.replace('\u00a0', ' ').replace("\r\n", "\n").replace('\r', '\n');
    }

    /** "2 6.72" and "100 .00" are numbers split by a stray space. */
    static double number(String digits) {
        return Double.parseDouble(digits.replace(" ", ""));
    }

    private static String firstLine(String text) {
        String stripped = text.strip();
        if (stripped.isEmpty()) {
            return "(nothing)";
        }
        String line = stripped.lines().findFirst().orElse("").strip();
        return line.length() > 120 ? line.substring(0, 120) + "..." : line;
    }
}
