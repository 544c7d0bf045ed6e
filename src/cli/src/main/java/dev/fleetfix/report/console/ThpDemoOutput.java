package dev.fleetfix.report.console;

import dev.fleetfix.bench.BenchResult;
import dev.fleetfix.bench.Metric;
import dev.fleetfix.bench.load.HistogramLatency;
import dev.fleetfix.bench.load.ProfileOutcome;
import dev.fleetfix.bench.plan.ForkUnderLoadSpec;
import dev.fleetfix.bench.verdict.MetricComparison;
import dev.fleetfix.bench.verdict.TestComparison;
import dev.fleetfix.report.ReportModelMapper;
import dev.fleetfix.report.VerdictText;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalLong;
import java.util.stream.Collectors;

/**
 * What {@code fleetfix thp-demo} writes: a run's figures saved as {@code key=value} lines (and
 * read back), a run's one line, and two sides' runs side by side.
 */
public final class ThpDemoOutput {
    private ThpDemoOutput() {}

    /**
     * One saved run.
     *
     * @param label the side's label ("always", "never"), null when the file has none
     * @param result the run's figures
     * @param forkMicros the BGSAVE forks' durations in µs, comma-separated; blank when none
     */
    public record SavedRun(String label, BenchResult result, String forkMicros) {}

    /** Why the profile did not run. */
    public static void skipped(ProfileOutcome.Skipped skipped, PrintWriter out) {
        out.println("fork-under-load skipped: " + skipped.reason());
    }

    /** Saves a run's figures to {@code file}, one {@code key=value} a line. */
    public static void save(Path file, String label, ProfileOutcome.Ran ran) throws IOException {
        BenchResult r = ran.load().result();
        List<String> lines = List.of(
                "label=" + label,
                "rps=" + r.rps(),
                "requests=" + r.requests().orElse(0),
                "errors=" + ran.load().errors(),
                "fork_usec=" + forkMicros(ran),
                "keys_deleted=" + ran.keysDeleted(),
                "histogram=" + r.latency().histogram().orElseThrow());
        Files.write(file, lines, StandardCharsets.UTF_8);
    }

    /** The run's line: SETs measured, errors, BGSAVE forks and the keys deleted afterwards. */
    public static void measured(ProfileOutcome.Ran ran, PrintWriter out) {
        BenchResult r = ran.load().result();
        String forks = forkMicros(ran);
        out.printf(
                Locale.ROOT,
                "  measured %d SETs in %.1f s, %d errors, %d BGSAVE forks (fork µs: %s), %d benchmark keys deleted%n",
                r.requests().orElse(0),
                ran.load().measured().toMillis() / 1000.0,
                ran.load().errors(),
                ran.forks().size(),
                forks.isEmpty() ? "-" : forks,
                ran.keysDeleted());
        out.flush();
    }

    private static String forkMicros(ProfileOutcome.Ran ran) {
        return ran.forks().stream().map(f -> Long.toString(f.forkMicros())).collect(Collectors.joining(","));
    }

    /** Reads saved runs, in order. */
    public static List<SavedRun> read(List<Path> files) throws IOException {
        List<SavedRun> all = new ArrayList<>();
        for (Path f : files) {
            all.add(read(f));
        }
        return all;
    }

    private static SavedRun read(Path file) throws IOException {
        Map<String, String> values = new HashMap<>();
        for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
            int eq = line.indexOf('=');
            if (eq > 0) {
                values.put(line.substring(0, eq), line.substring(eq + 1));
            }
        }
        BenchResult result = new BenchResult(
                ForkUnderLoadSpec.TEST,
                Double.parseDouble(values.get("rps")),
                OptionalLong.of(Long.parseLong(values.get("requests"))),
                HistogramLatency.of(HistogramLatency.decode(values.get("histogram"))));
        return new SavedRun(values.get("label"), result, values.getOrDefault("fork_usec", ""));
    }

    /** The side's name in the table: "THP always". */
    public static String side(List<SavedRun> runs) {
        return "THP " + runs.get(0).label();
    }

    /** The medians of each side's rounds, their range, the ratio and the verdict per figure. */
    public static void comparison(TestComparison c, List<SavedRun> before, List<SavedRun> after, PrintWriter out) {
        String bl = side(before);
        String al = side(after);
        out.printf(
                Locale.ROOT,
                "%-12s %26s %26s %7s  %s%n",
                "median",
                bl + " (rounds min-max)",
                al + " (rounds min-max)",
                "ratio",
                "verdict");
        for (MetricComparison m : c.metrics()) {
            String unit = m.metric() == Metric.RPS ? "" : " ms";
            out.printf(
                    Locale.ROOT,
                    "%-12s %26s %26s %7.2f  %s%n",
                    m.metric().label() + unit,
                    median(m.metric(), m.beforeSampleMedian(), m.before()),
                    median(m.metric(), m.afterSampleMedian(), m.after()),
                    m.ratio(),
                    VerdictText.word(ReportModelMapper.word(m.verdict())));
        }
        out.printf(Locale.ROOT, "%-12s %26s %26s%n", "BGSAVE forks", forks(before), forks(after));
        out.println("verdict, " + al + " against " + bl + " over " + before.size() + "+" + after.size()
                + " rounds (fleetfix doc verdicts): "
                + VerdictText.of(ReportModelMapper.word(c.verdict()), c.reason().orElse(null)));
        out.flush();
    }

    private static String median(Metric metric, double median, List<Double> rounds) {
        return String.format(
                Locale.ROOT,
                "%s (%s-%s)",
                format(metric, median),
                format(
                        metric,
                        rounds.stream().mapToDouble(Double::doubleValue).min().orElse(0)),
                format(
                        metric,
                        rounds.stream().mapToDouble(Double::doubleValue).max().orElse(0)));
    }

    private static String format(Metric m, double value) {
        return m == Metric.RPS
                ? String.format(Locale.ROOT, "%.0f", value)
                : String.format(Locale.ROOT, value >= 100 ? "%.1f" : "%.2f", value);
    }

    /** Fork durations of every round, in ms: "3,102 | 3 ms". */
    private static String forks(List<SavedRun> rounds) {
        return rounds.stream()
                .map(SavedRun::forkMicros)
                .map(f -> f.isBlank()
                        ? "-"
                        : Arrays.stream(f.split(","))
                                .map(us -> String.format(Locale.ROOT, "%.0f", Long.parseLong(us) / 1000.0))
                                .collect(Collectors.joining(",")))
                .collect(Collectors.joining(" | ", "", " ms"));
    }
}
